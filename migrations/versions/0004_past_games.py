"""Past games (issue 37): a finished game outlives its table; who sat where; its record for the
replay; the host's shared link.

Revision ID: 0004
Revises: 0002

Games already in the database keep their end; the current game of each table gets its
players from the table's seats (numbered as in that game until the next start). Older
games cannot be told apart from their seats any more: they stay unlisted (``games prune``
removes them). None of them has a record, so none has a replay.
"""
import sqlalchemy as sa
from alembic import op

revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('game_players',
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ),
    sa.PrimaryKeyConstraint('game_id', 'seat')
    )
    with op.batch_alter_table('game_players', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_game_players_user_id'), ['user_id'], unique=False)

    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('moves', sa.Text(), nullable=True))
        batch_op.add_column(sa.Column('table_name', sa.String(length=60), nullable=True))
        batch_op.add_column(sa.Column('host_user_id', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('share_key', sa.String(length=32), nullable=True))
        batch_op.alter_column('table_id', existing_type=sa.String(length=32), nullable=True)
        batch_op.create_unique_constraint('uq_games_share_key', ['share_key'])
        batch_op.create_foreign_key('fk_games_host_user_id', 'users', ['host_user_id'], ['id'])

    op.execute("UPDATE games SET table_name = (SELECT t.name FROM tables t WHERE t.id = games.table_id)")
    op.execute("UPDATE games SET host_user_id = (SELECT t.host_user_id FROM tables t"
               " WHERE t.current_game_id = games.id) WHERE id IN (SELECT current_game_id FROM tables)")
    op.execute("INSERT INTO game_players (game_id, seat, user_id)"
               " SELECT t.current_game_id, s.number, s.user_id FROM tables t JOIN seats s ON s.table_id = t.id"
               " WHERE t.current_game_id IS NOT NULL")


def downgrade():
    op.execute("DELETE FROM games WHERE table_id IS NULL")
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_constraint('fk_games_host_user_id', type_='foreignkey')
        batch_op.drop_constraint('uq_games_share_key', type_='unique')
        batch_op.alter_column('table_id', existing_type=sa.String(length=32), nullable=False)
        batch_op.drop_column('share_key')
        batch_op.drop_column('host_user_id')
        batch_op.drop_column('table_name')
        batch_op.drop_column('moves')

    with op.batch_alter_table('game_players', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_game_players_user_id'))

    op.drop_table('game_players')
