#!/usr/bin/env python3
"""What sending one view costs a worker: the CPU of gevent's ``sendall`` of a view-sized body
on a loopback TCP connection, with another process reading it, as a stream's event is sent.

    .venv/bin/python bench/send.py [--bytes 13500] [--sends 20000]

A sampling profiler run on a busy machine puts a worker's waits for a core inside the send
that woke the reader; this measures the send alone (process CPU per send, lowest of 5).
"""
from gevent import monkey

monkey.patch_all()

import argparse  # noqa: E402
import os  # noqa: E402
import socket  # noqa: E402
import time  # noqa: E402


def cpu_per_send(size: int, sends: int) -> float:
    server = socket.create_server(("127.0.0.1", 0))
    reader = os.fork()
    if reader == 0:
        with socket.create_connection(server.getsockname()) as conn:
            while conn.recv(1 << 20):
                pass
        os._exit(0)
    conn, _ = server.accept()
    body = b"x" * size
    started = time.process_time()
    for _ in range(sends):
        conn.sendall(body)
    spent = time.process_time() - started
    conn.close()
    os.waitpid(reader, 0)
    return spent / sends * 1e6


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bytes", type=int, default=13500, help="a view's size (13,500: the average at 60 tables)")
    parser.add_argument("--sends", type=int, default=20000)
    args = parser.parse_args()
    best = min(cpu_per_send(args.bytes, args.sends) for _ in range(5))
    print(f"sendall of {args.bytes} bytes (gevent, loopback, a reader process): {best:.1f} us CPU per send")


if __name__ == "__main__":
    main()
