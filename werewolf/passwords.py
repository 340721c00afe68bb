"""The worst passwords, refused when an account is made or its password changed.

Not a strength meter: only what a guesser tries first (NIST SP 800-63B, 5.1.1.2: a list
of commonly used values and context-specific words, here the game's own). Passwords
are compared lowercased and without spaces or punctuation, so "Mot de passe" and
"LOUP-GAROU" are the words below. Entries shorter than the minimum length need not be
listed (refused by their length anyway).
"""

COMMON = """
password password1 password12 password123 passw0rd p@ssw0rd 12345678 123456789 1234567890
0123456789 87654321 987654321 12341234 11223344 12344321 123123123 123321123 147258369
123654789 159753456 741852963 963852741 qwertyui qwertyuiop qwerty123 qwerty12 1q2w3e4r
1q2w3e4r5t 1qaz2wsx zaq12wsx 123qweasd qweasdzxc asdfghjk asdfghjkl zxcvbnm1 abcd1234
abc12345 abc123456 a1b2c3d4 aa123456 a12345678 a123456789 qq123456 iloveyou iloveyou1
sunshine princess football baseball welcome1 letmein1 trustno1 superman starwars computer
whatever dragon12 monkey12 master12 shadow12 michael1 jennifer charlie1 azertyui azertyuiop
azerty12 azerty123 azerty1234 1234azer motdepasse motdepasse1 motdepasse12 motdepasse123
chouchou doudoudou loulou123 soleil123 bonjour1 bonjour123 jetaime1 jetaime123 marseille
marseille13 doudou123 nicolas1 camille1 woaini1314 woaini520 woaini123 iloveyou1314
5201314520 woaiwojia 88888888 loupgarou loupgarous loupsgarous werewolf werewolves
thiercelieux villageois voyante sorciere cupidon chasseur
"""


def normalized(password: str) -> str:
    """Lowercased, letters and digits only: how passwords are compared with the list."""
    return "".join(c for c in password.casefold() if c.isalnum())


COMMON_PASSWORDS = frozenset(normalized(word) for word in COMMON.split())
MIN_DISTINCT = 3  # "aaaaaaaa", "abababab", eight spaces: too few different characters


def weakness(password: str, name: str) -> str | None:
    """Why ``password`` is among the worst for the account ``name``, as an error code; None
    when it is not: "password_is_name", "password_too_simple" or "password_too_common"."""
    if password.casefold() == name.casefold() or normalized(password) == normalized(name) != "":
        return "password_is_name"
    if len(set(password.casefold())) < MIN_DISTINCT:
        return "password_too_simple"
    if normalized(password) in COMMON_PASSWORDS:
        return "password_too_common"
    return None
