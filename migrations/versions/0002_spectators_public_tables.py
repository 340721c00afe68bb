"""Spectators (option spectators) and the waiting tables their host made public (issue 14).

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01 01:43:12.628029

"""
import sqlalchemy as sa
from alembic import op

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('public_tables',
    sa.Column('table_id', sa.String(length=32), nullable=False),
    sa.Column('since', sa.Double(), nullable=False),
    sa.ForeignKeyConstraint(['table_id'], ['tables.id'], ),
    sa.PrimaryKeyConstraint('table_id')
    )
    op.create_table('spectators',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.String(length=32), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('last_seen', sa.Double(), nullable=False),
    sa.ForeignKeyConstraint(['table_id'], ['tables.id'], ),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('table_id', 'user_id')
    )
    with op.batch_alter_table('spectators', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_spectators_table_id'), ['table_id'], unique=False)


def downgrade():
    with op.batch_alter_table('spectators', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_spectators_table_id'))

    op.drop_table('spectators')
    op.drop_table('public_tables')