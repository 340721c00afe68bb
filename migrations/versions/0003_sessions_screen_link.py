"""The server's record of each account's live sessions (log-out ends one, "log out
everywhere" all), and the room screen's link that a host can renew (issue 33).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-03 17:30:00

Sessions made before it name no recorded session: everyone logs in again once. Screen
links made before it keep working (revision 0 is the key they had).
"""
import sqlalchemy as sa
from alembic import op

revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('session_tokens', sa.Text(), server_default='', nullable=False))
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('screen_rev', sa.Integer(), server_default='0', nullable=False))


def downgrade():
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.drop_column('screen_rev')
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.drop_column('session_tokens')
