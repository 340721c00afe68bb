"""The tables as they were before migrations (a database made then is at this revision).

Revision ID: 0001
Revises:
Create Date: 2026-12-01 00:11:06.676861

"""
import sqlalchemy as sa
from alembic import op

revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('users',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=40), nullable=False),
    sa.Column('name_key', sa.String(length=40), nullable=False),
    sa.Column('password_hash', sa.String(length=255), nullable=False),
    sa.Column('created_at', sa.Double(), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('name_key')
    )
    # tables.current_game_id -> games.id closes a cycle: SQLite takes it in CREATE TABLE
    # (use_alter is ignored there), other databases get it by ALTER once games exists.
    op.create_table('tables',
    sa.Column('id', sa.String(length=32), nullable=False),
    sa.Column('code', sa.String(length=5), nullable=False),
    sa.Column('name', sa.String(length=60), nullable=False),
    sa.Column('host_user_id', sa.Integer(), nullable=True),
    sa.Column('settings', sa.Text(), nullable=False),
    sa.Column('lobby_rev', sa.Integer(), nullable=False),
    sa.Column('current_game_id', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.Double(), nullable=False),
    sa.ForeignKeyConstraint(['current_game_id'], ['games.id'], name='fk_tables_current_game', use_alter=True),
    sa.ForeignKeyConstraint(['host_user_id'], ['users.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('code')
    )
    op.create_table('games',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.String(length=32), nullable=False),
    sa.Column('status', sa.String(length=10), nullable=False),
    sa.Column('deadline', sa.Double(), nullable=True),
    sa.Column('rev', sa.Integer(), nullable=False),
    sa.Column('state', sa.Text(), nullable=False),
    sa.Column('created_at', sa.Double(), nullable=False),
    sa.ForeignKeyConstraint(['table_id'], ['tables.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    if op.get_bind().dialect.name != 'sqlite':
        op.create_foreign_key('fk_tables_current_game', 'tables', 'games', ['current_game_id'], ['id'])
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.create_index('ix_games_due', ['status', 'deadline'], unique=False)
        batch_op.create_index(batch_op.f('ix_games_table_id'), ['table_id'], unique=False)

    op.create_table('seats',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.String(length=32), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('joined_at', sa.Double(), nullable=False),
    sa.Column('last_seen', sa.Double(), nullable=False),
    sa.ForeignKeyConstraint(['table_id'], ['tables.id'], ),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('table_id', 'user_id')
    )
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_seats_table_id'), ['table_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_seats_user_id'), ['user_id'], unique=False)


def downgrade():
    if op.get_bind().dialect.name != 'sqlite':
        op.drop_constraint('fk_tables_current_game', 'tables', type_='foreignkey')
    op.drop_table('seats')
    op.drop_table('games')
    op.drop_table('tables')
    op.drop_table('users')
