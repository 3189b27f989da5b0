"""The season component's tables (component ``season`` in the project database).

Normalised: a game's result is stored per seat (``season_game_seats``: seat, player, title, place,
points), so every ranking is an SQL aggregate. ``season_id`` is repeated on the seat rows (it is
fixed by the game's match) so that the season's aggregates need no join and can use one covering
index. ``season_player_totals`` / ``season_team_totals`` are materialised totals updated in the same
transaction as every recorded game / match (see :mod:`broadcast.season.model`); they can always be
rebuilt from the normalised rows (``Season.rebuild_totals``) and the benchmark compares both.

The season lives in SQLite (the project's file, the default) or PostgreSQL (a season many tables
share): ``SQLITE`` and ``POSTGRESQL`` are the same versions written for each, applied by the project's
own runner (:func:`broadcast.season.backend.migrate`; SQLite through :func:`broadcast.core.db.migrate`
like every component of the project file). Why not Alembic: the project file's other components
(journal, as-run log) are versioned by the same ``schema_versions`` table and runner, the DDL is short
and must differ per dialect anyway (``WITHOUT ROWID``, identity columns), and Alembic would bring
SQLAlchemy for a dozen scripts; ``tests/season/test_backends.py`` checks that both dialects end at
the same version with the same tables and columns.

v2: ``uid`` (a table's own id of a match, a game, a penalty: pushing it again is a no-op),
``revision`` (bumped by every counted change; studios follow it), ``h2h`` (the head-to-head score of
each player/team inside its tie group, kept up to date for the season's ranking spec named in
``h2h_players`` / ``h2h_teams``) and the index the on-air top N is read from.

v3: a team's matches by either side (the head-to-head of the teams a result moved is counted from
their own matches, not from the season's).

v4: the players' ranking index holds every total a ranking row shows (a covering index: the whole
ranking is read from the index alone, in its order, without a lookup per row).

v5: each totals row holds its name's sort key (``name_key``: the GB18030 bytes of the player's / team's
name, the display order of a tie group), and the players' ranking index orders by it and the id after
the rank terms: the database hands the whole ranking out in its final order (no tie group sorted in
Python). The key is written by Python (SQL has no GB18030 on SQLite): when a row is added, renamed,
rebuilt, and for the rows this migration adds (:func:`broadcast.season.store.fill_name_keys`, run at
every open). A rename by any other way (a trigger sets the key NULL) is caught: while any key is NULL the
ranking sorts its tie groups in Python as v4 did, until the next fill.

v6: ``season_corrections``, the season's own record of every correction of a match (today: its lineup,
:mod:`broadcast.season.corrections`): what it was, what it became, the games it corrected, the operator's
reason, the table's ``uid`` (a correction pushed again is a no-op).

Never edit a shipped migration: append a new one (to both lists).
"""

from __future__ import annotations

COMPONENT = "season"

SQLITE: list[str] = [
    # v1 -----------------------------------------------------------------------------------------
    """
    CREATE TABLE season_seasons (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        title TEXT NOT NULL DEFAULT '',
        rules TEXT NOT NULL DEFAULT 'tv_match',
        sponsor TEXT NOT NULL DEFAULT '',
        sponsor_logo TEXT NOT NULL DEFAULT '',
        ranking_players TEXT NOT NULL DEFAULT '',
        ranking_teams TEXT NOT NULL DEFAULT '',
        created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%S','now'))
    );
    CREATE TABLE season_episodes (
        id INTEGER PRIMARY KEY,
        season_id INTEGER NOT NULL REFERENCES season_seasons(id) ON DELETE CASCADE,
        number INTEGER NOT NULL,
        title TEXT NOT NULL DEFAULT '',
        air_date TEXT NOT NULL DEFAULT '',
        UNIQUE (season_id, number)
    );
    CREATE TABLE season_teams (
        id INTEGER PRIMARY KEY,
        season_id INTEGER NOT NULL REFERENCES season_seasons(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        sponsor TEXT NOT NULL DEFAULT '',
        color TEXT NOT NULL DEFAULT '',
        UNIQUE (season_id, name)
    );
    CREATE TABLE season_players (
        id INTEGER PRIMARY KEY,
        season_id INTEGER NOT NULL REFERENCES season_seasons(id) ON DELETE CASCADE,
        team_id INTEGER REFERENCES season_teams(id),
        code TEXT,
        name TEXT NOT NULL,
        gender TEXT NOT NULL DEFAULT '',
        phone TEXT NOT NULL DEFAULT '',
        photo TEXT NOT NULL DEFAULT '',
        hometown TEXT NOT NULL DEFAULT '',
        note TEXT NOT NULL DEFAULT '',
        UNIQUE (season_id, code)
    );
    CREATE INDEX season_players_team ON season_players(team_id);
    CREATE INDEX season_players_name ON season_players(season_id, name);
    CREATE TABLE season_matches (
        id INTEGER PRIMARY KEY,
        season_id INTEGER NOT NULL REFERENCES season_seasons(id) ON DELETE CASCADE,
        episode_id INTEGER REFERENCES season_episodes(id),
        round INTEGER NOT NULL DEFAULT 0,
        label TEXT NOT NULL DEFAULT '',
        team_a INTEGER NOT NULL REFERENCES season_teams(id),
        team_b INTEGER NOT NULL REFERENCES season_teams(id),
        status TEXT NOT NULL DEFAULT 'scheduled'
            CHECK (status IN ('scheduled', 'playing', 'final')),
        score_a INTEGER NOT NULL DEFAULT 0,
        score_b INTEGER NOT NULL DEFAULT 0,
        penalty_a INTEGER NOT NULL DEFAULT 0,
        penalty_b INTEGER NOT NULL DEFAULT 0,
        winner INTEGER REFERENCES season_teams(id),
        decided_by TEXT NOT NULL DEFAULT '',
        lots_seed INTEGER,
        forfeit_team INTEGER REFERENCES season_teams(id),
        note TEXT NOT NULL DEFAULT '',
        CHECK (team_a <> team_b)
    );
    CREATE INDEX season_matches_season ON season_matches(season_id, round);
    CREATE INDEX season_matches_episode ON season_matches(episode_id);
    CREATE TABLE season_lineups (
        match_id INTEGER NOT NULL REFERENCES season_matches(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL CHECK (seat BETWEEN 1 AND 6),
        player_id INTEGER NOT NULL REFERENCES season_players(id),
        PRIMARY KEY (match_id, seat)
    );
    CREATE TABLE season_games (
        id INTEGER PRIMARY KEY,
        match_id INTEGER NOT NULL REFERENCES season_matches(id) ON DELETE CASCADE,
        number INTEGER NOT NULL,
        extra INTEGER NOT NULL DEFAULT 0,
        gjn TEXT NOT NULL,
        quan_san INTEGER NOT NULL DEFAULT 0,
        points_a INTEGER NOT NULL,
        points_b INTEGER NOT NULL,
        UNIQUE (match_id, number)
    );
    CREATE TABLE season_game_seats (
        game_id INTEGER NOT NULL REFERENCES season_games(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL CHECK (seat BETWEEN 1 AND 6),
        season_id INTEGER NOT NULL,
        player_id INTEGER NOT NULL REFERENCES season_players(id),
        team_id INTEGER NOT NULL REFERENCES season_teams(id),
        title TEXT NOT NULL,
        place INTEGER,
        points INTEGER NOT NULL,
        opened INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (game_id, seat)
    ) WITHOUT ROWID;
    CREATE INDEX season_game_seats_agg
        ON season_game_seats(season_id, player_id, points, place, title);
    CREATE INDEX season_game_seats_player ON season_game_seats(player_id, game_id, place);
    CREATE TABLE season_penalties (
        id INTEGER PRIMARY KEY,
        match_id INTEGER NOT NULL REFERENCES season_matches(id) ON DELETE CASCADE,
        team_id INTEGER NOT NULL REFERENCES season_teams(id),
        player_id INTEGER REFERENCES season_players(id),
        game_number INTEGER,
        reason TEXT NOT NULL,
        points INTEGER NOT NULL DEFAULT 2
    );
    CREATE TABLE season_prizes (
        id INTEGER PRIMARY KEY,
        season_id INTEGER NOT NULL REFERENCES season_seasons(id) ON DELETE CASCADE,
        episode_id INTEGER REFERENCES season_episodes(id),
        player_id INTEGER NOT NULL REFERENCES season_players(id),
        cell INTEGER NOT NULL CHECK (cell BETWEEN 1 AND 9),
        prize TEXT NOT NULL,
        sponsor TEXT NOT NULL DEFAULT '',
        value_yuan REAL NOT NULL DEFAULT 0
    );
    CREATE TABLE season_player_totals (
        season_id INTEGER NOT NULL,
        player_id INTEGER NOT NULL PRIMARY KEY REFERENCES season_players(id) ON DELETE CASCADE,
        games INTEGER NOT NULL DEFAULT 0,
        points INTEGER NOT NULL DEFAULT 0,
        firsts INTEGER NOT NULL DEFAULT 0,
        seconds INTEGER NOT NULL DEFAULT 0,
        lasts INTEGER NOT NULL DEFAULT 0,
        quan_san INTEGER NOT NULL DEFAULT 0,
        opened INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX season_player_totals_season ON season_player_totals(season_id);
    CREATE TABLE season_team_totals (
        season_id INTEGER NOT NULL,
        team_id INTEGER NOT NULL PRIMARY KEY REFERENCES season_teams(id) ON DELETE CASCADE,
        matches INTEGER NOT NULL DEFAULT 0,
        wins INTEGER NOT NULL DEFAULT 0,
        losses INTEGER NOT NULL DEFAULT 0,
        points INTEGER NOT NULL DEFAULT 0,
        penalties INTEGER NOT NULL DEFAULT 0,
        games INTEGER NOT NULL DEFAULT 0,
        firsts INTEGER NOT NULL DEFAULT 0,
        lasts INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX season_team_totals_season ON season_team_totals(season_id);
    """,
    # v2 -----------------------------------------------------------------------------------------
    """
    ALTER TABLE season_matches ADD COLUMN uid TEXT;
    CREATE UNIQUE INDEX season_matches_uid ON season_matches(uid);
    ALTER TABLE season_games ADD COLUMN uid TEXT;
    CREATE UNIQUE INDEX season_games_uid ON season_games(uid);
    ALTER TABLE season_penalties ADD COLUMN uid TEXT;
    CREATE UNIQUE INDEX season_penalties_uid ON season_penalties(uid);
    ALTER TABLE season_seasons ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE season_seasons ADD COLUMN h2h_players TEXT NOT NULL DEFAULT '';
    ALTER TABLE season_seasons ADD COLUMN h2h_teams TEXT NOT NULL DEFAULT '';
    ALTER TABLE season_player_totals ADD COLUMN h2h INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE season_team_totals ADD COLUMN h2h INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX season_player_totals_rank
        ON season_player_totals(season_id, points DESC, firsts DESC, lasts, h2h DESC);
    """,
    # v3 -----------------------------------------------------------------------------------------
    """
    CREATE INDEX season_matches_team_a ON season_matches(team_a);
    CREATE INDEX season_matches_team_b ON season_matches(team_b);
    """,
    # v4 -----------------------------------------------------------------------------------------
    """
    DROP INDEX season_player_totals_rank;
    CREATE INDEX season_player_totals_ranked ON season_player_totals(
        season_id, points DESC, firsts DESC, lasts, h2h DESC, games, seconds, quan_san, opened);
    """,
    # v5 -----------------------------------------------------------------------------------------
    """
    ALTER TABLE season_player_totals ADD COLUMN name_key BLOB;
    ALTER TABLE season_team_totals ADD COLUMN name_key BLOB;
    DROP INDEX season_player_totals_ranked;
    CREATE INDEX season_player_totals_order ON season_player_totals(
        season_id, points DESC, firsts DESC, lasts, h2h DESC, name_key, player_id,
        games, seconds, quan_san, opened);
    CREATE INDEX season_player_totals_unnamed ON season_player_totals(player_id) WHERE name_key IS NULL;
    CREATE INDEX season_team_totals_unnamed ON season_team_totals(team_id) WHERE name_key IS NULL;
    CREATE TRIGGER season_player_renamed AFTER UPDATE OF name ON season_players
        WHEN NEW.name IS NOT OLD.name
    BEGIN
        UPDATE season_player_totals SET name_key=NULL WHERE player_id=NEW.id;
    END;
    CREATE TRIGGER season_team_renamed AFTER UPDATE OF name ON season_teams
        WHEN NEW.name IS NOT OLD.name
    BEGIN
        UPDATE season_team_totals SET name_key=NULL WHERE team_id=NEW.id;
    END;
    """,
    # v6 -----------------------------------------------------------------------------------------
    """
    CREATE TABLE season_corrections (
        id INTEGER PRIMARY KEY,
        match_id INTEGER NOT NULL REFERENCES season_matches(id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        was TEXT NOT NULL,
        now TEXT NOT NULL,
        games TEXT NOT NULL DEFAULT '',
        reason TEXT NOT NULL,
        uid TEXT
    );
    CREATE INDEX season_corrections_match ON season_corrections(match_id);
    CREATE UNIQUE INDEX season_corrections_uid ON season_corrections(uid);
    """,
]
MIGRATIONS = SQLITE  # the name core.db's callers knew

POSTGRESQL: list[str] = [
    # v1 -----------------------------------------------------------------------------------------
    """
    CREATE TABLE season_seasons (
        id INTEGER GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        title TEXT NOT NULL DEFAULT '',
        rules TEXT NOT NULL DEFAULT 'tv_match',
        sponsor TEXT NOT NULL DEFAULT '',
        sponsor_logo TEXT NOT NULL DEFAULT '',
        ranking_players TEXT NOT NULL DEFAULT '',
        ranking_teams TEXT NOT NULL DEFAULT '',
        created TEXT NOT NULL DEFAULT (to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS'))
    );
    CREATE TABLE season_episodes (
        id INTEGER GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        season_id INTEGER NOT NULL REFERENCES season_seasons(id) ON DELETE CASCADE,
        number INTEGER NOT NULL,
        title TEXT NOT NULL DEFAULT '',
        air_date TEXT NOT NULL DEFAULT '',
        UNIQUE (season_id, number)
    );
    CREATE TABLE season_teams (
        id INTEGER GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        season_id INTEGER NOT NULL REFERENCES season_seasons(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        sponsor TEXT NOT NULL DEFAULT '',
        color TEXT NOT NULL DEFAULT '',
        UNIQUE (season_id, name)
    );
    CREATE TABLE season_players (
        id INTEGER GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        season_id INTEGER NOT NULL REFERENCES season_seasons(id) ON DELETE CASCADE,
        team_id INTEGER REFERENCES season_teams(id),
        code TEXT,
        name TEXT NOT NULL,
        gender TEXT NOT NULL DEFAULT '',
        phone TEXT NOT NULL DEFAULT '',
        photo TEXT NOT NULL DEFAULT '',
        hometown TEXT NOT NULL DEFAULT '',
        note TEXT NOT NULL DEFAULT '',
        UNIQUE (season_id, code)
    );
    CREATE INDEX season_players_team ON season_players(team_id);
    CREATE INDEX season_players_name ON season_players(season_id, name);
    CREATE TABLE season_matches (
        id INTEGER GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        season_id INTEGER NOT NULL REFERENCES season_seasons(id) ON DELETE CASCADE,
        episode_id INTEGER REFERENCES season_episodes(id),
        round INTEGER NOT NULL DEFAULT 0,
        label TEXT NOT NULL DEFAULT '',
        team_a INTEGER NOT NULL REFERENCES season_teams(id),
        team_b INTEGER NOT NULL REFERENCES season_teams(id),
        status TEXT NOT NULL DEFAULT 'scheduled'
            CHECK (status IN ('scheduled', 'playing', 'final')),
        score_a INTEGER NOT NULL DEFAULT 0,
        score_b INTEGER NOT NULL DEFAULT 0,
        penalty_a INTEGER NOT NULL DEFAULT 0,
        penalty_b INTEGER NOT NULL DEFAULT 0,
        winner INTEGER REFERENCES season_teams(id),
        decided_by TEXT NOT NULL DEFAULT '',
        lots_seed INTEGER,
        forfeit_team INTEGER REFERENCES season_teams(id),
        note TEXT NOT NULL DEFAULT '',
        CHECK (team_a <> team_b)
    );
    CREATE INDEX season_matches_season ON season_matches(season_id, round);
    CREATE INDEX season_matches_episode ON season_matches(episode_id);
    CREATE TABLE season_lineups (
        match_id INTEGER NOT NULL REFERENCES season_matches(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL CHECK (seat BETWEEN 1 AND 6),
        player_id INTEGER NOT NULL REFERENCES season_players(id),
        PRIMARY KEY (match_id, seat)
    );
    CREATE TABLE season_games (
        id INTEGER GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        match_id INTEGER NOT NULL REFERENCES season_matches(id) ON DELETE CASCADE,
        number INTEGER NOT NULL,
        extra INTEGER NOT NULL DEFAULT 0,
        gjn TEXT NOT NULL,
        quan_san INTEGER NOT NULL DEFAULT 0,
        points_a INTEGER NOT NULL,
        points_b INTEGER NOT NULL,
        UNIQUE (match_id, number)
    );
    CREATE TABLE season_game_seats (
        game_id INTEGER NOT NULL REFERENCES season_games(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL CHECK (seat BETWEEN 1 AND 6),
        season_id INTEGER NOT NULL,
        player_id INTEGER NOT NULL REFERENCES season_players(id),
        team_id INTEGER NOT NULL REFERENCES season_teams(id),
        title TEXT NOT NULL,
        place INTEGER,
        points INTEGER NOT NULL,
        opened INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX season_game_seats_agg
        ON season_game_seats(season_id, player_id, points, place, title);
    CREATE INDEX season_game_seats_player ON season_game_seats(player_id, game_id, place);
    CREATE TABLE season_penalties (
        id INTEGER GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        match_id INTEGER NOT NULL REFERENCES season_matches(id) ON DELETE CASCADE,
        team_id INTEGER NOT NULL REFERENCES season_teams(id),
        player_id INTEGER REFERENCES season_players(id),
        game_number INTEGER,
        reason TEXT NOT NULL,
        points INTEGER NOT NULL DEFAULT 2
    );
    CREATE TABLE season_prizes (
        id INTEGER GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        season_id INTEGER NOT NULL REFERENCES season_seasons(id) ON DELETE CASCADE,
        episode_id INTEGER REFERENCES season_episodes(id),
        player_id INTEGER NOT NULL REFERENCES season_players(id),
        cell INTEGER NOT NULL CHECK (cell BETWEEN 1 AND 9),
        prize TEXT NOT NULL,
        sponsor TEXT NOT NULL DEFAULT '',
        value_yuan DOUBLE PRECISION NOT NULL DEFAULT 0
    );
    CREATE TABLE season_player_totals (
        season_id INTEGER NOT NULL,
        player_id INTEGER NOT NULL PRIMARY KEY REFERENCES season_players(id) ON DELETE CASCADE,
        games INTEGER NOT NULL DEFAULT 0,
        points INTEGER NOT NULL DEFAULT 0,
        firsts INTEGER NOT NULL DEFAULT 0,
        seconds INTEGER NOT NULL DEFAULT 0,
        lasts INTEGER NOT NULL DEFAULT 0,
        quan_san INTEGER NOT NULL DEFAULT 0,
        opened INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX season_player_totals_season ON season_player_totals(season_id);
    CREATE TABLE season_team_totals (
        season_id INTEGER NOT NULL,
        team_id INTEGER NOT NULL PRIMARY KEY REFERENCES season_teams(id) ON DELETE CASCADE,
        matches INTEGER NOT NULL DEFAULT 0,
        wins INTEGER NOT NULL DEFAULT 0,
        losses INTEGER NOT NULL DEFAULT 0,
        points INTEGER NOT NULL DEFAULT 0,
        penalties INTEGER NOT NULL DEFAULT 0,
        games INTEGER NOT NULL DEFAULT 0,
        firsts INTEGER NOT NULL DEFAULT 0,
        lasts INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX season_team_totals_season ON season_team_totals(season_id);
    """,
    SQLITE[1],  # v2: the same statements on both
    SQLITE[2],  # v3
    # v4 -----------------------------------------------------------------------------------------
    """
    DROP INDEX season_player_totals_rank;
    CREATE INDEX season_player_totals_ranked
        ON season_player_totals(season_id, points DESC, firsts DESC, lasts, h2h DESC)
        INCLUDE (games, seconds, quan_san, opened, player_id);
    """,
    # v5 -----------------------------------------------------------------------------------------
    """
    ALTER TABLE season_player_totals ADD COLUMN name_key BYTEA;
    ALTER TABLE season_team_totals ADD COLUMN name_key BYTEA;
    DROP INDEX season_player_totals_ranked;
    CREATE INDEX season_player_totals_order
        ON season_player_totals(season_id, points DESC, firsts DESC, lasts, h2h DESC, name_key, player_id)
        INCLUDE (games, seconds, quan_san, opened);
    CREATE INDEX season_player_totals_unnamed ON season_player_totals(player_id) WHERE name_key IS NULL;
    CREATE INDEX season_team_totals_unnamed ON season_team_totals(team_id) WHERE name_key IS NULL;
    CREATE FUNCTION season_name_key_stale() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_TABLE_NAME = 'season_players' THEN
            UPDATE season_player_totals SET name_key=NULL WHERE player_id=NEW.id;
        ELSE
            UPDATE season_team_totals SET name_key=NULL WHERE team_id=NEW.id;
        END IF;
        RETURN NULL;
    END $$;
    CREATE TRIGGER season_player_renamed AFTER UPDATE OF name ON season_players
        FOR EACH ROW WHEN (NEW.name IS DISTINCT FROM OLD.name) EXECUTE FUNCTION season_name_key_stale();
    CREATE TRIGGER season_team_renamed AFTER UPDATE OF name ON season_teams
        FOR EACH ROW WHEN (NEW.name IS DISTINCT FROM OLD.name) EXECUTE FUNCTION season_name_key_stale();
    """,
    # v6 -----------------------------------------------------------------------------------------
    SQLITE[5].replace("id INTEGER PRIMARY KEY", "id INTEGER GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"),
]
