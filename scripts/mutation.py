#!/usr/bin/env python3
"""The project's own mutation check: chosen small bugs, each put into a copy of the tree, each against
the tests that should catch it.

    .venv/bin/python scripts/mutation.py              # every mutant (a few minutes)
    .venv/bin/python scripts/mutation.py --list       # the mutants, what each breaks, its tests
    .venv/bin/python scripts/mutation.py --only token-cookie-any replay-keeps-partial-state
    .venv/bin/python scripts/mutation.py --readme     # and write the result into README.md

Each mutant names one exact piece of code (it must be there, once, or the run reports it *stale*: the
list follows the code), the change, and the tests that state the behaviour it breaks. The working tree
is never touched: tracked and new files are copied to a temporary folder, the unmutated copy must
pass those tests first, then each mutant is applied alone and its tests run with ``-x``. A mutant is
*killed* when they fail, *survived* when they pass. Exit status 1 if any survived or is stale.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README_BEGIN = "<!-- mutation:begin -->"
README_END = "<!-- mutation:end -->"


@dataclass(frozen=True)
class Mutant:
    name: str
    file: str
    old: str
    new: str
    tests: tuple[str, ...]
    breaks: str  # the behaviour the mutant breaks (what the killing test states)
    occurrence: int = 1  # which occurrence of ``old`` (1-based) when it appears more than once


SERVER = "broadcast/overlay/guard.py"  # the overlay server's guard: token, paths
SERVER_TESTS = ("tests/overlay/test_server.py",)
STORE = "broadcast/core/store.py"
ASRUN_TAMPER = (
    "tests/sponsors/test_asrun_report.py::test_a_changed_prize_or_a_deleted_proof_picture_breaks_the_chain"
)
COVERAGE_SLACK = (
    "tests/sponsors/test_asrun_report.py::test_corner_bug_coverage_within_two_seconds_of_its_promise_is_met"
)
RANKINGS_QUAN_SAN = (
    "tests/season/test_rankings.py::test_quan_san_seat_points_and_head_to_head_with_a_quan_san_player"
)
YAML_TESTS = "tests/engine/test_yamlread.py"
RESTART = (
    "tests/sponsors/test_studio_restart.py::test_a_studio_killed_mid_show_credits_nothing_it_did_not_see"
)
AS_AIRED = (
    "tests/sponsors/test_placements_as_aired.py::"
    "test_the_report_after_the_placements_are_edited_or_removed_post_air_says_what_aired"
)
EPISODE_ROWS = (
    "tests/obs/test_episode_rows.py::"
    "test_rows_before_the_episode_begins_and_across_a_change_go_to_the_episode_they_aired_in"
)
RECORD_FREED = (
    "tests/console/test_record_rows_freed.py::test_the_record_keeps_only_the_rows_it_shows_game_after_game"
)
LATENCY_REDRAW = (
    "tests/console/test_latency.py::"
    "test_a_decision_sent_redraws_the_views_once_for_the_answer_or_pending_while_the_store_waits"
)
LATENCY_WINDOW = (
    "tests/console/test_latency.py::"
    "test_the_window_redraws_with_the_interpreter_free_and_a_press_on_a_separator_still_arranges"
)

PLURALS = "tests/test_english_plurals.py::"
GLOSSARY_TESTS = "tests/test_english_glossary.py::"

MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        "english-count-always-plural",
        "engine/english.py",
        'return one if n == 1 else (many or one + "s")',
        'return many or one + "s"',
        (PLURALS + "test_an_english_count_says_one_and_many",),
        'an English count says "1 games" (the one helper for every count of the code)',
    ),
    Mutant(
        "qt-count-without-numerus",
        "broadcast/qt/i18n.py",
        "return QCoreApplication.translate(context, text, None, n)",
        "return QCoreApplication.translate(context, text)",
        (PLURALS + "test_the_windows_say_one_game_and_two_games_in_english_and_chinese_unchanged",),
        'the windows\' counts lose their numerus form: "%n games" or "1 games" on screen',
    ),
    Mutant(
        "argparse-refusal-english-only",
        "engine/english.py",
        'return f"{zh.format(*m.groups())} / {message}"',
        "return message",
        ("tests/test_english_cli.py::test_a_wrong_argument_is_one_line_in_chinese_then_english",),
        "a wrong argument is refused in argparse's English only",
    ),
    Mutant(
        "placements-english-lists-the-chinese",
        "broadcast/sponsors/placements/model.py",
        'en_lines = "\\n".join(i.located("en") for i in errors)',
        "en_lines = zh",
        (PLURALS + "test_one_placements_error_is_one_error_and_its_english_is_english",),
        "the English of a refused placements file lists the Chinese lines",
    ),
    Mutant(
        "token-cookie-any",
        SERVER,
        'given = request.query.get("token") or request.cookies.get(COOKIE) or ""',
        'given = request.query.get("token") or (token if request.cookies.get(COOKIE) else "")',
        SERVER_TESTS,
        "any overlay_token cookie value is accepted",
    ),
    Mutant(
        "token-bearer-any",
        SERVER,
        "given = auth[7:].strip()",
        "given = token",
        SERVER_TESTS,
        "any Bearer token is accepted",
    ),
    Mutant(
        "token-query-any",
        SERVER,
        'given = request.query.get("token") or request.cookies.get(COOKIE) or ""',
        'given = (token if request.query.get("token") else "") or request.cookies.get(COOKIE) or ""',
        SERVER_TESTS,
        "any token= query value is accepted",
    ),
    Mutant(
        "middleware-dotdot-off",
        SERVER,
        'return any(seg == ".." or "/" in seg or "\\\\" in seg for seg in segments)',
        "return False",
        SERVER_TESTS,
        "the server's own check of `..` in the path is gone (safe_join alone is left)",
    ),
    Mutant(
        "safe-join-symlink-out",
        SERVER,
        "if target != root_r and not target.is_relative_to(root_r):",
        "if False:",
        SERVER_TESTS,
        "a symlink leading out of a served folder is followed",
    ),
    Mutant(
        "replay-keeps-partial-state",
        STORE,
        "dict.__setitem__(self, key, _clone(dict.__getitem__(self, key)))",
        "pass",
        ("tests/core/test_replay.py",),
        "a journal entry refused on replay leaves what its reducer changed before refusing "
        "(the copy-on-write draft writes into the state itself)",
    ),
    Mutant(
        "dispatch-keeps-partial-state",
        STORE,
        "dict.__setitem__(self, key, _clone(dict.__getitem__(self, key)))",
        "pass",
        ("tests/core/test_store.py", "tests/core/test_storage.py"),
        "a refused dispatch leaves what its reducer changed before refusing (the same change, "
        "seen from a dispatch)",
    ),
    Mutant(
        "schema-not-validated",
        STORE,
        "if self._validate:",
        "if False:",
        ("tests/core",),
        "a state that breaks the schema is journaled and sent to the pages",
    ),
    Mutant(
        "listener-failure-breaks-dispatch",
        STORE,
        "except Exception:  # a listener's failure must never break the show",
        "except ZeroDivisionError:",
        ("tests/core",),
        "one failing listener stops the others and fails the dispatch",
    ),
    Mutant(
        "listeners-told-out-of-turn",
        STORE,
        "if not self._turns.wait_for(lambda: self._told >= turn - 1, TURN_WAIT):",
        "if not self._turns.wait_for(lambda: True, TURN_WAIT):",
        ("tests/core/test_store.py",),
        "a change made on one thread is told to the listeners before an earlier one made on another: a "
        "console or bridge keeping the latest state ends on an older one (issue 20's flaky as-run test)",
    ),
    Mutant(
        "draft-section-text-kept-after-edit",
        "broadcast/producer/draft.py",
        "self._texts.pop(str(key), None)",
        "pass",
        ("tests/producer/test_draft.py",),
        "the producer's draft keeps a section's old text after an edit that leaves its plain value the "
        "same (an alias written out, a value of another type)",
    ),
    Mutant(
        "draft-shared-sections-not-written-together",
        "broadcast/producer/draft.py",
        "for linked in self._read_links.get(todo.pop(), ()):",
        "for linked in () if todo.pop() else ():",
        ("tests/producer/test_draft.py",),
        "an edit of the section holding a YAML anchor leaves another section's alias pointing nowhere: "
        "the saved placements no longer read",
    ),
    Mutant(
        "penalty-ignored",
        "broadcast/season/scoring.py",
        "for _ in range(total // p.penalty_points):",
        "for _ in range(0):",
        ("tests/season/test_cli.py::test_match_flow_through_the_cli", "tests/season/test_model.py"),
        "a referee penalty (G11.2) does not count in the match result",
    ),
    Mutant(
        "png-name-escaped",
        "broadcast/season/render.py",
        "            text = get(r)\n",
        '            text = get(r).replace("<", "&lt;").replace(">", "&gt;")\n',
        ("tests/season/test_export.py",),
        "the 英雄榜 PNG shows a name HTML-escaped instead of as written",
    ),
    Mutant(
        "export-all-players-twice",
        "broadcast/cli/export.py",
        "with closing(stream_ranking(sdb.conn, sid, kind, spec=spec)) as stream:",
        'with closing(stream_ranking(sdb.conn, sid, "players", spec=spec)) as stream:',
        ("tests/season/test_export.py",),
        "`export all` writes the players' ranking under the teams' file names",
    ),
    Mutant(
        "h2h-left-group-keeps-score",
        "broadcast/season/totals.py",
        "                    delta[z] -= behind\n",
        "                    pass\n",
        ("tests/season/test_board.py::test_head_to_head_kept_game_by_game_equals_counting_it_all_again",),
        "a player who leaves a tie group keeps counting in the head-to-head of those left in it",
    ),
    Mutant(
        "top-n-cuts-its-tie-group",
        "broadcast/season/rankings.py",
        "if len(first) == top and top > 0:",
        "if False:",
        ("tests/season/test_board.py::test_top_n_reads_the_whole_tie_group_at_its_edge_numbered_1_1_3",),
        "the on-air top N drops the rows tied with its last one (and numbers a 并列 as alone)",
    ),
    Mutant(
        "name-key-kept-at-a-rename",
        "broadcast/season/migrations.py",
        "        UPDATE season_player_totals SET name_key=NULL WHERE player_id=NEW.id;\n    END;",
        "        SELECT 1;\n    END;",
        (
            "tests/season/test_board.py::test_a_renamed_player_moves_in_its_tie_group_however_the_name_was_changed",
        ),
        "a player renamed by SQL (the roster import's way) keeps the old name's place in its 并列 group",
    ),
    Mutant(
        "tie-read-in-order-not-flagged",
        "broadcast/season/rankings.py",
        "tied += repeat(n > 1, n)",
        "tied += repeat(False, n)",
        ("tests/season/test_board.py::test_top_n_reads_the_whole_tie_group_at_its_edge_numbered_1_1_3",),
        "the first row of a 并列 group read in the database's order is shown as alone",
    ),
    Mutant(
        "ranking-tie-group-cut-between-reads",
        "broadcast/season/rankings.py",
        "if key == held_key:  # the held group goes on in this list",
        "if False:",
        (
            "tests/season/test_board.py::test_a_whole_ranking_read_a_few_rows_at_a_time_numbers_its_tie_groups_across_the_reads",
        ),
        "a 并列 group read over two lists is numbered as two groups (1, 1, 3, 3 → 1, 1, 3, 4)",
    ),
    Mutant(
        "push-penalty-lookup-scans",
        "broadcast/season/matches.py",
        '"SELECT 1 FROM season_penalties WHERE uid=?"',
        "\"SELECT 1 FROM season_penalties WHERE uid || ''=?\"",
        ("tests/season/test_push_plans.py",),
        "a push's lookup no index can serve: each pushed penalty reads all the season's penalties",
    ),
    Mutant(
        "season-demo-prints-the-password",
        "broadcast/cli/season.py",
        'f"演示赛季已建立 demo season built: {shown(args.season_db)} — ',
        'f"演示赛季已建立 demo season built: {args.season_db} — ',
        ("tests/season/test_backends.py::test_the_demo_season_on_a_server_never_prints_its_password",),
        "season demo on a server prints the URL with its password",
    ),
    Mutant(
        "season-url-unsplittable-traceback",
        "broadcast/season/backend.py",
        "    except ValueError:  # not a URL urllib can read (the server refuses it too): hide what may be "
        "one",
        "    except ZeroDivisionError:  # not a URL urllib can read",
        (
            "tests/season/test_backends.py::test_a_refused_password_a_missing_database_and_a_bad_url_are_one_"
            "line_each_never_the_password",
        ),
        "a season URL urllib cannot split ends in a traceback (exit 1) instead of one line",
    ),
    Mutant(
        "season-server-refusal-unexplained",
        "broadcast/season/backend.py",
        "        zh, en = _why_not(_unsaid(_first_line(exc), url))",
        "        zh = en = _first_line(exc)",
        (
            "tests/season/test_backends.py::test_a_server_that_is_not_there_is_one_line_and_exit_2",
            "tests/season/test_backends.py::test_a_refused_password_a_missing_database_and_a_bad_url_are_one_"
            "line_each_never_the_password",
        ),
        "a server that refuses the password or is not there is libpq's English in the Chinese half",
    ),
    Mutant(
        "season-notify-not-sent",
        "broadcast/season/store.py",
        'return f"WITH u AS ({bump}) SELECT u.*, pg_notify(?, ?) FROM u", (',
        'return f"WITH u AS ({bump}) SELECT u.*, concat(?::text, ?::text) FROM u", (',
        ("tests/season/test_tables.py::test_a_studio_board_follows_a_game_another_table_recorded",),
        "a studio's 英雄榜 never follows a game another table recorded in a PostgreSQL season (no NOTIFY)",
    ),
    Mutant(
        "top-n-reads-the-whole-ranking",
        "broadcast/season/rankings.py",
        '        first = conn.tuples(select + order + " LIMIT ?", (season_id, top))',
        "        first = conn.tuples(select + order, (season_id,))[:top]",
        (
            "tests/season/test_board.py::test_the_on_air_top_n_reads_its_rows_and_the_tie_at_its_edge_never_"
            "the_whole_ranking",
        ),
        "the on-air top N reads every player of the season and keeps the first N (the same board, a full "
        "read after every game)",
    ),
    Mutant(
        "closed-pipe-is-an-error",
        "broadcast/cli/tools.py",
        "    except BrokenPipeError:  # the reader left (… | head): nothing to say, as a shell's own tools",
        "    except ZeroDivisionError:  # the reader left",
        ("tests/season/test_cli_args.py::test_a_reader_that_leaves_early_ends_the_command_quietly",),
        "season leaderboard | head says 错误 error: 无法写入 … Broken pipe and exits 2",
    ),
    Mutant(
        "push-race-refused-not-answered",
        "broadcast/season/matches.py",
        "        except self.conn.IntegrityError:  # the same push",
        "        except ZeroDivisionError:  # the same push",
        (
            "tests/season/test_board.py::test_a_push_stored_meanwhile_by_the_tables_first_connection_is_"
            "answered_with_that_game_counted_once",
        ),
        "a game pushed again while the table's first connection stores it fails instead of being answered",
    ),
    Mutant(
        "game-queued-when-the-pusher-looks",
        "broadcast/season/push.py",
        "            if self.auto and not self.stopping.is_set():\n",
        "            if False:\n",
        ("tests/season/test_tables.py::test_a_game_is_queued_when_it_ends_even_while_the_pusher_is_busy",),
        "a game a table ends while its pusher is busy is never queued (the next game begins first)",
    ),
    Mutant(
        "game-over-at-a-kill-left-to-the-pusher",
        "broadcast/season/push.py",
        "        if self.auto:  # what the table finished before a kill",
        "        if False:  # what the table finished before a kill",
        ("tests/season/test_tables.py::test_a_game_over_at_a_kill_is_queued_before_the_table_goes_on",),
        "a game that ended just before a kill -9 is lost when the restarted table begins the next one first",
    ),
    Mutant(
        "export-all-whole-season-records",
        "broadcast/cli/export.py",
        "recs = export_records(sdb, season, eid,",
        "recs = export_records(sdb, season, None,",
        ("tests/season/test_export.py",),
        "`export all --episode N` writes every episode's records",
    ),
    Mutant(
        "G4.1-named-G4.2",
        "engine/cards.py",
        '            "G4.1",\n            f"{q} has {n_cards(qs)}',
        '            "G4.2",\n            f"{q} has {n_cards(qs)}',
        ("tests/game/test_table.py",),
        "a beat of another size is refused naming the wrong clause",
    ),
    Mutant(
        "G3.1-named-G3.2",
        "engine/rules.py",
        'return Refusal("G3.1", f"seat {seat} does not hold {pl}"',
        'return Refusal("G3.2", f"seat {seat} does not hold {pl}"',
        ("tests/game/test_table.py",),
        "a play of cards the seat does not hold is refused naming the wrong clause",
    ),
    Mutant(
        "G5.2-named-G5.3",
        "engine/messages.py",
        'return Refusal("G5.2", f"it is not seat {seat}\'s turn; {act_en}"',
        'return Refusal("G5.3", f"it is not seat {seat}\'s turn; {act_en}"',
        ("tests/season/test_model.py",),
        "a move out of turn is refused naming the wrong clause",
    ),
    Mutant(
        "G4.4-enumerate-beats",
        "engine/listing.py",
        "for z in range(need, r + 1):",
        "for z in range(0, r + 1):",
        ("tests/engine",),
        "legal_plays() lists beats of a 小王 play without enough 大王 (G4.4) that `in` refuses",
        occurrence=1,
    ),
    Mutant(
        "guard-kills-nothing",
        "tests/session_guard.py",
        "os.kill(pid, signal.SIGKILL)",
        "os.kill(pid, 0)",
        ("tests/test_session_guard.py",),
        "the session guard leaves the processes a test forgot running",
    ),
    Mutant(
        "guard-hung-worker-left",
        "tests/session_guard.py",
        "os.kill(worker, signal.SIGKILL)",
        "os.kill(worker, 0)",
        (
            "tests/test_session_guard.py::test_on_two_workers_a_thread_left_running_in_a_worker_fails_the_run_by_name",
        ),
        "a worker its threads keep from exiting is left to pytest-xdist's 10 s wait instead of ended at once",
    ),
    Mutant(
        "guard-watchdog-off",
        "tests/session_guard.py",
        "if run is not None and run.limit and now - run.started > run.limit:",
        "if False:",
        ("tests/test_session_guard.py",),
        "a test that ignores its timeout hangs the run",
    ),
    Mutant(
        "redo-first-undone",
        "broadcast/game/record.py",
        "move = engine.Action.parse(redo[-1])",
        "move = engine.Action.parse(redo[0])",
        ("tests/game/test_record.py::test_redo_after_two_undos_plays_the_moves_back_in_their_order",),
        "redo after two undos replays the first move undone instead of the last",
    ),
    Mutant(
        "completion-wild-beats-first",
        "broadcast/console/completion.py",
        "return (wild, p.base, p.n, 0)",
        "return (p.base, wild, p.n, 0)",
        ("tests/console/test_entry.py::test_plain_beats_come_before_beats_that_spend_a_2_or_a_joker",),
        "the completion list offers a beat spending a 2 or a joker (42, 4小王) before a plain higher one",
    ),
    Mutant(
        "insert-drops-renumbered",
        "broadcast/game/record.py",
        "first_rest = n if insert else n + 1",
        "first_rest = n + 1",
        (
            "tests/game/test_record.py::test_an_inserted_decision_drops_the_later_ones_under_their_original_numbers",
        ),
        "decisions dropped by an inserted correction are listed one number past what the operator knew",
    ),
    Mutant(
        "film-follows-a-segment",
        "broadcast/sponsors/cues.py",
        'd["follow"] = bool(prev is not None and c.kind in TIMED and prev.kind in TIMED and c.seconds)',
        'd["follow"] = bool(prev is not None and c.kind in TIMED and c.seconds)',
        ("tests/sponsors/test_cues.py::test_a_film_after_a_game_or_the_leaderboard_waits_for_go",),
        "the rundown marks a film after a game or the 英雄榜 to follow it (it would roll with no GO)",
    ),
    Mutant(
        "segment-end-rolls-the-film",
        "broadcast/sponsors/cues.py",
        'if nxt < len(cq["list"]) and cq["list"][nxt]["follow"] and timed:',
        'if nxt < len(cq["list"]) and cq["list"][nxt]["follow"]:',
        ("tests/sponsors/test_cues.py::test_a_film_after_a_game_or_the_leaderboard_waits_for_go",),
        "a film marked follow rolls with no GO when the game or the 英雄榜 before it ends",
    ),
    Mutant(
        "dense-rank-after-a-tie",
        "broadcast/season/rankings.py",
        "        rank = len(out) + 1\n",
        "        rank = out[-1].rank + 1 if out else 1\n",
        ("tests/season/test_rankings.py::test_a_tie_is_followed_by_the_rank_after_the_tied_rows",),
        "the 英雄榜 numbers the row after a tie 2 instead of 3 (1, 1, 2)",
    ),
    Mutant(
        "quan-san-shared-equally",
        "broadcast/season/scoring.py",
        "shares = [tp[i] * p.quan_san_points // base for i in range(3)]",
        "shares = [p.quan_san_points // 3 for i in range(3)]",
        (RANKINGS_QUAN_SAN,),
        "圈三's 32 points are shared equally (12, 10, 10), not 7:5:4 (14, 10, 8)",
    ),
    Mutant(
        "h2h-quan-san-ahead",
        "broadcast/season/rankings.py",
        "COALESCE(s.place, 99)",
        "COALESCE(s.place, 0)",
        (RANKINGS_QUAN_SAN,),
        "in head-to-head a 圈三 player counts as ahead of the placed players",
    ),
    Mutant(
        "roster-gbk-first",
        "broadcast/season/importer.py",
        'for enc in ("utf-8-sig", "gb18030"):',
        'for enc in ("gb18030", "utf-8-sig"):',
        (
            "tests/season/test_import.py::test_a_utf8_roster_without_a_bom_is_read_as_utf8_even_when_its_bytes_are_also_gbk",
        ),
        "a UTF-8 roster without a BOM is read as GBK (mojibake names) when its bytes allow it",
    ),
    Mutant(
        "chain-skips-detail",
        "broadcast/sponsors/chain.py",
        "[rid, float(ts), kind, subject, source, episode, detail], ensure_ascii=False",
        "[rid, float(ts), kind, subject, source, episode], ensure_ascii=False",
        (ASRUN_TAMPER,),
        "an as-run row's detail (a 九宫格 prize) edited after the show passes the chain check",
    ),
    Mutant(
        "deleted-proof-passes",
        "broadcast/sponsors/chain.py",
        '                return broken(r.id, "proof_deleted", "的截图不见了（被删除）", '
        '"proof picture deleted")\n            if hashlib',
        "                pass\n            elif hashlib",
        (ASRUN_TAMPER,),
        "a proof row whose picture was deleted passes the chain check",
    ),
    Mutant(
        "coverage-slack-ignored",
        "broadcast/sponsors/exposure.py",
        "return self.promised is not None and self.delivered + self.slack + 1e-9 < self.promised",
        "return self.promised is not None and self.delivered + 1e-9 < self.promised",
        (COVERAGE_SLACK,),
        "a corner bug 1.2 s short of its 95 % (94.6 %) is reported short despite the 2 s slack",
    ),
    Mutant(
        "coverage-slack-in-seconds",
        "broadcast/sponsors/exposure.py",
        "slack = 100.0 * COVERAGE_SLACK / program if program > 0 else 0.0",
        "slack = COVERAGE_SLACK",
        (COVERAGE_SLACK,),
        "the corner bug's 2 s slack is taken as 2 % of the programme (3 s short passes)",
    ),
    Mutant(
        "checkpoint-of-a-replaced-row",
        "broadcast/core/journal.py",
        '"SELECT c.seq FROM journal_checkpoints c JOIN journal j ON j.seq = c.seq AND j.hash = c.hash "',
        '"SELECT c.seq FROM journal_checkpoints c JOIN journal j ON j.seq = c.seq "',
        ("tests/core/test_journal.py::test_a_checkpoint_whose_journal_row_was_replaced_is_not_used",),
        "a start trusts a checkpoint whose journal row was replaced (the state misses what the journal says)",
    ),
    Mutant(
        "failed-film-stalls",
        "broadcast/sponsors/cues.py",
        'if nxt < len(cq["list"]) and cq["list"][nxt]["follow"] and timed:',
        'if nxt < len(cq["list"]) and cq["list"][nxt]["follow"] and timed and status is None:',
        ("tests/sponsors/test_cues.py::test_a_failed_film_does_not_stall_the_rundown",),
        "after a film that could not air, the films that follow it do not roll (the rundown stalls)",
    ),
    Mutant(
        "leaderboard-film-left-running",
        "broadcast/sponsors/cuerunner.py",
        "if not bridge.status.connected:\n"
        "                    self._fail(cue, NOT_CONNECTED)\n"
        "                return",
        "return",
        ("tests/sponsors/test_cues.py::test_the_leaderboard_film_with_obs_down_is_failed_not_left_running",),
        "the 英雄榜冠名 film is left running as if on air while OBS is down",
    ),
    Mutant(
        "audit-shot-unmarked",
        "broadcast/audit/report.py",
        '    if findings:\n        draw = ImageDraw.Draw(out, "RGBA")',
        '    if not findings:\n        draw = ImageDraw.Draw(out, "RGBA")',
        (
            "tests/overlay/test_audit.py::"
            "test_the_probe_reads_graphics_drawn_over_each_other_and_a_name_broken_on_a_real_page",
        ),
        "the audit's screenshot of a finding has neither its boxes marked nor its words on top",
    ),
    Mutant(
        "log-token-kept",
        SERVER,
        'text = text.replace(self.token, "***")',
        "pass",
        (
            "tests/overlay/test_hostile.py::test_the_token_is_in_no_log_line_even_for_a_malformed_request_line",
        ),
        "the token is in the log line aiohttp writes for a malformed request line",
    ),
    Mutant(
        "json-depth-unchecked",
        "broadcast/overlay/protocol.py",
        'if data.count(b"[") + data.count(b"{") <= limit:',
        "if True:",
        ("tests/overlay/test_hostile.py",),
        "deeply nested JSON reaches the parser (a 500 on the control API, a traceback for a page)",
    ),
    Mutant(
        "wal-damage-unseen",
        "broadcast/core/integrity.py",
        "if len(after) >= 2:",
        "if False:",
        (
            "tests/core/test_damage.py::test_a_frame_damaged_in_the_middle_of_the_wal_is_refused_and_the_wal_kept",
        ),
        "a damaged -wal starts the studio, and its good tail is checkpointed away",
    ),
    Mutant(
        "look-alikes-by-nfkc-only",
        "broadcast/core/text.py",
        'mapped = "".join(table.get(ch, ch) for ch in unicodedata.normalize("NFD", text))',
        "mapped = text",
        ("tests/core/test_text_policy.py",),
        "names that look the same (Cyrillic а for Latin a, 0 for O) are two names",
    ),
    Mutant(
        "default-ignorables-allowed",
        "broadcast/core/text.py",
        'for a, b in DEFAULT_IGNORABLE)\n    + "".join(re.escape(ch) for ch in sorted(BLANK_SYMBOLS))',
        'for a, b in ())\n    + "".join(re.escape(ch) for ch in sorted(BLANK_SYMBOLS))',
        ("tests/core/test_text_policy.py",),
        "variation selectors, U+034F and the Hangul fillers are accepted in names",
    ),
    Mutant(
        "csv-quote-lenient",
        "broadcast/season/importer.py",
        "reader = csv.reader(f, dialect, strict=True)",
        "reader = csv.reader(f, dialect)",
        ("tests/core/test_text_policy.py::test_a_csv_with_a_broken_quote_is_refused_naming_the_row",),
        "a quote never closed swallows the rest of the roster into one name",
    ),
    Mutant(
        "qualifiers-other-preset-counted",
        "broadcast/qualifiers/check.py",
        "if outcome.rules != rules:",
        "if False:",
        ("tests/qualifiers/test_check.py::test_a_legal_game_of_another_preset_is_refused_by_rules",),
        "a game of another preset counts on a board that scores one",
    ),
    Mutant(
        "qualifiers-tie-not-shared",
        "broadcast/qualifiers/board.py",
        "r.tied = len(group) > 1",
        "r.tied = False",
        ("tests/qualifiers/test_board.py",),
        "players level on every term of the key do not share their rank (并列)",
    ),
    Mutant(
        "qualifiers-identity-of-a-prefix",
        "broadcast/qualifiers/records.py",
        "return hashlib.blake2b(data, digest_size=16, person=kind.encode()).digest()",
        "return hashlib.blake2b(data[:64], digest_size=16).digest()",
        ("tests/qualifiers/test_records.py",),
        "two records with the same first bytes are one record: the second would count as already imported",
    ),
    Mutant(
        "proof-colour-only",
        "broadcast/obs/proofs.py",
        "if edges is not None and edges < EDGES_MIN:",
        "if False:",
        ("tests/obs/test_proofs.py::test_a_dark_graphic_s_bare_scene_or_an_older_board_is_no_proof",),
        "a proof picture of a dark graphic's bare, undrawn scene (or an older board) counts as proof",
    ),
    Mutant(
        "bridge-rows-in-current-episode",
        "broadcast/obs/evidence.py",
        "source=source, episode=self.episode, detail=detail",
        'source=source, episode="", detail=detail',
        (EPISODE_ROWS,),
        "a row OBS confirms before the recorder has begun the episode goes to no episode (the log's current)",
    ),
    Mutant(
        "episode-change-carries-nothing",
        "broadcast/obs/onair.py",
        'self._rec(ts, A.GRAPHIC_ON, g, {"scene": program, "item": shown[g], "carried": carried}, src)',
        "pass",
        (EPISODE_ROWS,),
        "an item on air across a change of episode is missing from the second episode's report",
    ),
    Mutant(
        "bumper-proof-of-the-line-before",
        "broadcast/obs/proofs.py",
        'item = self.host.tracker.on_air.get(graphic, "")',
        'item = ""',
        ("tests/obs/test_proofs.py::test_a_bumper_s_proof_is_asked_for_the_line_now_on_air",),
        "a bumper line's proof is asked for another line (none, or the one before) and is refused as gone",
    ),
    Mutant(
        "proof-render-resized-alone",
        "broadcast/obs/proofs.py",
        "return frame.resize(size, Image.Resampling.BILINEAR).crop(box)",
        "return pic.resize((box[2] - box[0], box[3] - box[1]), Image.Resampling.LANCZOS)",
        ("tests/obs/test_proofs.py::test_a_ticker_s_proof_from_a_real_obs_passes_and_another_line_does_not",),
        "a ticker's proof picture from a real OBS fails its check while the ticker aired (sub-pixel offset)",
    ),
    Mutant(
        "episode-air-date-from-show-only",
        "broadcast/sponsors/recorder.py",
        'air_date=str(st["show"].get("air_date", "") or source.get("air_date", "")),',
        'air_date=str(st["show"].get("air_date", "")),',
        (
            "tests/sponsors/test_placements_as_aired.py::"
            "test_the_air_date_the_placements_were_loaded_for_is_the_episode_s_when_the_show_names_none",
        ),
        "an episode the show names without a date has none in the report though run was given --air-date",
    ),
    Mutant(
        "studio-restart-watched-through",
        "broadcast/sponsors/exposure.py",
        'if e.subject == "provisioning" and up_since is not None:',
        "if False:",
        (RESTART,),
        "the span a killed studio saw nothing in (kill -9 to its restart) is credited as watched",
    ),
    Mutant(
        "obs-down-leaves-items-open",
        "broadcast/sponsors/exposure.py",
        "        elif e.kind == OBS_DOWN:\n",
        "        elif False:\n",
        (RESTART,),
        "a bumper on air when the studio was killed is credited on after its restart, never seen again",
    ),
    Mutant(
        "marks-during-films-credited",
        "broadcast/sponsors/exposure.py",
        "        and not during(e.ts, rolling)\n",
        "",
        (
            "tests/sponsors/test_marks_on_air.py::test_marks_keyed_while_a_film_is_on_program_are_not_credited",
        ),
        "a 口播 or a studio shot keyed while a break's film is on program is credited as aired",
    ),
    Mutant(
        "film-credited-off-program",
        "broadcast/sponsors/exposure.py",
        "raw[key] = _on_program(raw[key], raw, film_scene)",
        "raw[key] = raw[key]",
        (
            "tests/sponsors/test_marks_on_air.py::"
            "test_a_film_obs_played_on_after_program_was_cut_away_is_not_a_complete_airing",
        ),
        "a film OBS played on after program was cut away from the break is credited as aired whole",
    ),
    Mutant(
        "airings-after-the-end-unsaid",
        "broadcast/sponsors/exposure.py",
        "    if late:\n",
        "    if False:\n",
        (
            "tests/sponsors/test_studio_restart.py::"
            "test_airings_after_an_episode_s_end_are_not_credited_and_the_report_says_there_are_some",
        ),
        "airings OBS confirmed under an episode after its end vanish from its report without a word",
    ),
    Mutant(
        "placements-as-aired-not-kept",
        "broadcast/sponsors/recorder.py",
        'out["text"] = decode(raw, file)',
        "pass",
        (AS_AIRED,),
        "a report made after the placements were edited credits what aired to the sponsor the file names now",
    ),
    Mutant(
        "season-delivery-by-the-file-now",
        "broadcast/sponsors/delivery.py",
        "q = _as_aired(p, info.placements or {}, aired)",
        "q = p",
        (AS_AIRED,),
        "the season's delivery credits an episode's air to the sponsors the edited placements file names now",
    ),
    Mutant(
        "as-run-sheet-hides-the-boundary",
        "broadcast/sponsors/report.py",
        "return _described(e, p) + _boundary(e.detail)",
        "return _described(e, p)",
        (EPISODE_ROWS,),
        "the 播出记录 sheet shows a row carried across an episode change as if it were a new airing",
    ),
    Mutant(
        "placements-as-aired-not-read",
        "broadcast/cli/report.py",
        "    if isinstance(text, str):\n        aired = parse_placements(",
        "    if False:\n        aired = parse_placements(",
        (AS_AIRED,),
        "a report made after the placements file was edited or removed measures by the file as it is now",
    ),
    Mutant(
        "seek-table-not-projected",
        "broadcast/game/record.py",
        'g["record"], g["redo"] = record, redo',
        'g["record"], g["redo"] = record, redo\n    return  # the table not projected',
        ("tests/game/test_record.py::test_seek_steps_through_the_record_and_a_new_decision_drops_the_rest",),
        "a step through a record (game.seek) leaves the table at the move it was on",
    ),
    Mutant(
        "rehearsal-continues-unasked",
        "broadcast/console/rehearsal.py",
        "    box = QMessageBox(",
        "    return True\n    box = QMessageBox(",
        ("tests/console/test_rehearsal.py::test_step_through_a_record_then_continue_from_an_earlier_move",),
        "a decision typed at an earlier move of a rehearsal drops the record's later moves without asking",
    ),
    Mutant(
        "lineup-games-not-recounted",
        "broadcast/season/corrections.py",
        "        self._recount_players(c, sid, sorted(recount))",
        "        pass",
        (
            "tests/season/test_corrections.py::"
            "test_a_lineup_keyed_wrong_is_corrected_with_the_games_already_in_the_season[sqlite]",
        ),
        "a lineup corrected with the games in the season leaves the moved players' totals (the 英雄榜) as"
        " they were",
    ),
    Mutant(
        "leader-undo-drops-moves",
        "broadcast/game/record.py",
        'before = list(g["record"]) + ([str(d["line"]) for d in g["dropped"]] if undo else [])',
        'before = list(g["record"])',
        (
            "tests/console/test_edit.py::test_a_wrong_shangban_seat_is_corrected_with_ctrl_z_and_from_the_edit_menu",
        ),
        "Ctrl+Z of a 上班 correction gives the seat back but loses the decisions the correction dropped",
    ),
    Mutant(
        "rehearsal-step-from-stale-table",
        "broadcast/console/rehearsal.py",
        "    k = going if going is not None else k",
        "    k = k",
        ("tests/console/test_rehearsal.py::test_step_through_a_record_then_continue_from_an_earlier_move",),
        "a second PgUp pressed before the first step came back steps to the same move again (a step lost)",
    ),
    Mutant(
        "film-hold-never-ends",
        "broadcast/obs/films.py",
        "            if film.hold is not None:",
        "            if False:",
        ("tests/obs/test_unit.py::test_a_film_is_done_when_obs_ends_it_or_its_hold_runs_out_and_says_how",),
        "a quick run's film is never stopped after its hold: it plays its whole length (or, in the studio, "
        "the break waits for an end that comes 15 s later)",
    ),
    Mutant(
        "break-film-not-waited",
        "broadcast/runtime.py",
        "    while not done.is_set():",
        "    while False:",
        ("tests/test_run.py::test_run_hands_the_rundown_breaks_to_the_bridge_in_order",),
        "a break's next film is asked for while OBS still plays the one before (it replaces it on air)",
    ),
    Mutant(
        "early-echo-dropped",
        "broadcast/obs/evidence.py",
        "            return self._early.pop(seq, None)",
        "            return None",
        (
            "tests/obs/test_echo.py::"
            "test_an_echo_that_comes_before_the_bridge_is_told_of_its_state_is_kept_until_it_is",
        ),
        "a page inside OBS that echoes a state before the bridge's listener was told of it is dropped: the "
        "graphic it took off stays on air in the as-run log",
    ),
    Mutant(
        "commentators-pusher-left-pending",
        "broadcast/commentators/server.py",
        "            self._push_task.cancel()\n",
        "",
        ("tests/winprob/test_commentators_stop.py",),
        "the commentators' server stops with its pusher still pending: the closed loop destroys it and "
        'every run\'s stop logs "Task was destroyed but it is pending!"',
    ),
    Mutant(
        "break-reel-ends-after-first-film",
        "broadcast/obs/films.py",
        "        while reel.pending:\n",
        "        while reel.pending and not reel.films:\n",
        (
            "tests/obs/test_unit.py::test_a_break_s_films_roll_back_to_back_and_program_goes_back_only_after_the_last",
        ),
        "a break's reel stops after its first film: the others never roll (run's break shows one film)",
    ),
    Mutant(
        "break-reel-not-cut-by-a-panic",
        "broadcast/obs/films.py",
        "            self._cut_reel(why)\n",
        "            pass\n",
        (
            "tests/obs/test_unit.py::test_a_break_s_films_roll_back_to_back_and_program_goes_back_only_after_the_last",
        ),
        "a panic (or an interruption) leaves a break's reel waiting for films that will never end",
    ),
    Mutant(
        "jiugongge-off-before-the-board",
        "broadcast/rehearsal.py",
        '            if not self.store.state["leaderboard"].get("rows"):\n'
        '                self.on("jiugongge", False)\n',
        '            self.on("jiugongge", False)\n',
        (
            "tests/test_run.py::test_rehearsal_take_keeps_the_corner_bug_on_program_and_the_board_follows_the_jiugongge_at_once",
        ),
        "the finale takes the 九宫格 off before the 英雄榜 is on: program shows the game scene between",
    ),
    Mutant(
        "mode-refusal-without-english",
        "broadcast/console/controller.py",
        '_MODE_EN.get(mode.name, "no decision is taken now")',
        '""',
        (
            "tests/console/test_entry.py::test_a_line_typed_where_no_decision_is_taken_is_refused_in_both_languages",
        ),
        "a line typed where no decision is taken is refused with an empty English line",
    ),
    Mutant(
        "ctrl-c-lost-in-a-del",
        "broadcast/qualifiers/run.py",
        "        if self.fired and not self._held:\n",
        "        if False:\n",
        (
            "tests/qualifiers/test_import.py::test_a_ctrl_c_lost_inside_a_del_is_raised_at_the_next_safe_point",
        ),
        "a Ctrl-C that Python dropped inside a Dask Future's __del__ is lost: the import runs on to exit 0",
    ),
    Mutant(
        "evaluator-batch-not-idle",
        "broadcast/winprob/worker.py",
        "os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))",
        "os.sched_setscheduler(0, os.SCHED_BATCH, os.sched_param(0))",
        ("tests/winprob/test_service.py::test_a_worker_killed_outright_leaves_no_pool_process_behind",),
        "the 胜率 play-outs keep a processor to the end of their slice when a studio or page thread wakes "
        "(SCHED_BATCH, not SCHED_IDLE: issue 25)",
    ),
    Mutant(
        "estimate-copies-what-it-reads",
        "broadcast/winprob/actions.py",
        'seen = {k: peek(state, k) for k in ("game", "table", "winprob", "winprob_history")}',
        'seen = {k: state[k] for k in ("game", "table", "winprob", "winprob_history")}',
        (
            "tests/winprob/test_service.py::"
            "test_an_estimate_of_a_position_gone_is_refused_and_a_new_game_starts_afresh",
        ),
        "a 胜率 estimate's dispatch copies the record, the table and the history it only reads (issue 25)",
    ),
    Mutant(
        "estimate-redraws-every-view",
        "broadcast/console/controller.py",
        'if change.type == "winprob.estimate" and change.changed <= ESTIMATE_SECTIONS:',
        "if False:",
        (
            "tests/console/test_latency.py::test_an_estimate_redraws_the_chart_and_the_journal_number_not_every_view",
        ),
        "every 胜率 estimate redraws every view of the console (their redraw holds the interpreter a typed "
        "decision's way to the pages needs: issue 25)",
    ),
    Mutant(
        "estimate-redraws-while-a-decision-waits",
        "broadcast/console/controller.py",
        "if not self.pending:\n                self.estimated.emit()",
        "if True:\n                self.estimated.emit()",
        (
            "tests/console/test_latency.py::test_an_estimate_redraws_the_chart_and_the_journal_number_not_every_view",
        ),
        "an estimate that comes while a typed decision is on its way redraws the chart on the Qt thread then "
        "(the decision's own redraw shows it: issue 25)",
    ),
    Mutant(
        "record-cells-asked-in-python",
        "broadcast/console/models.py",
        "    FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable\n",
        "    FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable\n\n"
        "    def data(self, index: Any, role: int = 0) -> Any:\n        return super().data(index, role)\n",
        (LATENCY_REDRAW,),
        "the record's repaint after every decision calls into Python for each cell (twice its cost on the "
        "Qt thread a decision's way to the pages shares the interpreter with: issue 25)",
    ),
    Mutant(
        "record-pending-row-keeps-its-grey",
        "broadcast/console/models.py",
        "                for r in range(first, len(old)):  # restyled in place",
        "                for r in range(0):  # restyled in place",
        (LATENCY_REDRAW,),
        "a decision shown pending (greyed, in italics) stays so in the record once the store has written it",
    ),
    Mutant(
        "record-written-rows-replaced-not-restyled",
        "broadcast/console/models.py",
        "                        item = self.item(r, col)\n",
        "                        item = QStandardItem()\n"
        "                        self.setItem(r, col, item)\n",
        (RECORD_FREED,),
        "a written row is restyled in place, not replaced by new items the model keeps after Qt drops "
        "the old ones",
    ),
    Mutant(
        "window-redraw-under-a-python-event",
        "broadcast/console/window.py",
        "    def save_layout(self) -> None:\n",
        "    def event(self, event: QEvent) -> bool:\n        return super().event(event)\n\n"
        "    def save_layout(self) -> None:\n",
        (LATENCY_WINDOW,),
        "the console window's whole C++ redraw runs under a Python event() of its class, the interpreter "
        "lock held throughout (the store's and the pages' threads wait for it: issue 25)",
    ),
    Mutant(
        "separator-press-not-arranged",
        "broadcast/console/window.py",
        "        self.installEventFilter(self._separators)\n",
        "",
        (LATENCY_WINDOW,),
        "a press on a separator between docks no longer tells the layout the operator arranged it",
    ),
    Mutant(
        "restored-compact-docks-unscrolled",
        "broadcast/console/layout.py",
        "            self._dress()\n        self.fit()\n",
        "            pass\n        self.fit()\n",
        ("tests/console/test_layout.py::test_the_console_started_again_on_the_same_screen_fits_it",),
        "the console started a second time on a laptop is taller than the screen (its status bar, GO and "
        "the tabs below the edge): the saved compact tabs do not scroll",
    ),
    Mutant(
        "wide-right-column-unscrolled",
        "broadcast/console/layout.py",
        'self.kind != "compact" and key != "sponsors"',
        'self.kind != "compact"',
        ("tests/console/test_layout.py::test_the_default_layout_shows_several_cues_the_seats_and_the_entry",),
        "at 1920×1080 the window is 1198 px tall once a match is set (the sponsor events' panel does not "
        "scroll): the cue list and the status bar below the screen's edge",
    ),
    Mutant(
        "program-page-canvas-not-scaled",
        "overlays/js/page.js",
        "fitCanvas();\nwindow.addEventListener('resize', fitCanvas);\n",
        "",
        (
            "tests/overlay/test_graphics_render.py::"
            "test_a_browser_source_of_1280x720_shows_the_whole_picture_scaled",
        ),
        "a 1280×720 OBS browser source shows a cut-off corner of the 1920×1080 picture (the 九宫格's right "
        "column and bottom row off the frame)",
    ),
    Mutant(
        "graphics-tiles-three-rows-on-a-laptop",
        "broadcast/console/docks/graphics.py",
        "self._arrange(5 if event.size().width() < WIDE_ROWS else",
        "self._arrange(5 if event.size().width() < 10**6 else",
        ("tests/console/test_layout.py::test_the_default_layout_shows_several_cues_the_seats_and_the_entry",),
        "at 1366×768 the graphics tab's TAKE, CUT and 清屏 are cut off by its bottom edge (three rows of "
        "tiles)",
    ),
    Mutant(
        "cue-list-named-episode-starts-over",
        "broadcast/sponsors/cues.py",
        'same = cq["episode"] in (episode, "") and',
        'same = cq["episode"] == episode and',
        (
            "tests/console/test_onair.py::"
            "test_the_cue_list_comes_back_where_it_was_after_a_restart_once_the_episode_was_named",
        ),
        "the console started again after the match named the episode puts the cue list back at cue 1 "
        "(the next GO airs the opening bumpers a second time)",
    ),
    Mutant(
        "wide-graphics-scrolled",
        "broadcast/console/layout.py",
        'self.kind != "compact" and key != "sponsors"',
        'self.kind != "compact" and key not in ("sponsors", "graphics")',
        ("tests/console/test_layout.py::test_the_default_layout_shows_several_cues_the_seats_and_the_entry",),
        "at 1920×1080 the graphics dock scrolls: its share of the column cuts TAKE, CUT and PANIC off",
    ),
    Mutant(
        "seat-title-beside-a-cut-name",
        "broadcast/console/widgets.py",
        "below = title and room > 0 and need > room",
        "below = False",
        (
            "tests/console/test_layout.py::"
            "test_the_next_cue_reads_whole_beside_the_chart_and_the_seat_names_too",
        ),
        "at the game's end in English a seat's title (fourth, second) cuts its player's name to \"3 …\"",
    ),
    Mutant(
        "full-frame-mixed-over-the-older",
        "overlays/js/page.js",
        "const cutOut = coming.length > 0 &&",
        "const cutOut = false &&",
        (
            "tests/overlay/test_graphics_render.py::"
            "test_a_full_frame_item_and_what_it_replaces_are_never_drawn_over_each_other",
        ),
        "a TAKE from the 英雄榜 to the 九宫格 mixes the two: for a moment both are drawn over each other",
    ),
    Mutant(
        "dialog-combos-not-widened",
        "broadcast/console/dialogs.py",
        "        widen_combos(self)  # their longest item whole",
        "        pass  # their longest item whole",
        (
            "tests/console/test_match.py::test_the_new_match_dialog_shows_the_seasons_title_and_the_teams_whole",
        ),
        "the new-match dialog cuts the last character off the season's title (《够级大明星》第一季)",
    ),
    Mutant(
        "undo-asks-a-reason-on-a-saved-game",
        "broadcast/console/window.py",
        "        if self._saved():\n            return\n        if not record:",
        "        if not record:",
        (
            "tests/console/test_match.py::test_a_three_game_match_is_saved_to_the_season_and_the_leaderboard_follows",
        ),
        "Ctrl+Z on a game saved to the season asks for a reason, then the store refuses it",
    ),
    Mutant(
        "preflight-go-deaf-to-enter",
        "broadcast/console/preflight.py",
        "self.go.setAutoDefault(True)",
        "self.go.setAutoDefault(False)",
        ("tests/console/test_preflight.py::test_recording_over_red_lines_asks_and_the_as_run_records_it",),
        "Enter on 仍然开始录制, reached by Tab, does nothing",
    ),
    Mutant(
        "estimate-chart-not-redrawn",
        "broadcast/console/docks/winprob.py",
        "console.estimated.connect(self.refresh)",
        "pass",
        (
            "tests/console/test_latency.py::test_an_estimate_redraws_the_chart_and_the_journal_number_not_every_view",
        ),
        "the console's 胜率 chart shows a new estimate only at the next decision",
    ),
    Mutant(
        "rundown-english-unused",
        "broadcast/console/docks/cues.py",
        'if current() == "en":',
        "if False:",
        ("tests/console/test_rundown_words.py",),
        "the English console shows the rundown's generated cue texts and notes in Chinese",
    ),
    Mutant(
        "preflight-first-go-unchecked",
        "broadcast/console/preflight.py",
        'if recording_started(cues) or self._let_through == cues.get("episode"):',
        "if True:",
        ("tests/console/test_preflight.py::test_recording_over_red_lines_asks_and_the_as_run_records_it",),
        "the episode's first GO starts recording over red pre-show lines without asking",
    ),
    Mutant(
        "preflight-api-go-ungated",
        "broadcast/control.py",
        'if name == "go" and before_go is not None:',
        "if False:",
        (
            "tests/console/test_preflight.py::"
            "test_a_first_go_from_the_api_over_red_lines_is_refused_naming_them_then_confirmed",
        ),
        "a Stream Deck's first GO starts recording over red pre-show lines without a word",
    ),
    Mutant(
        "preflight-disk-always-enough",
        "broadcast/preflight.py",
        "if free >= est.needed:",
        "if True:",
        ("tests/test_preflight.py::test_disk_space_for_a_whole_show",),
        "the pre-show check calls a disk green that has no room for a whole show",
    ),
    Mutant(
        "yaml-c-tabs",
        "engine/yamlread.py",
        '"|[\\t?\\ufeff\\x85\\u2028\\u2029]"',
        '"|[?\\ufeff\\x85\\u2028\\u2029]"',
        (YAML_TESTS,),
        "a tab libyaml reads as a space is accepted where the pure loader names its line",
    ),
    Mutant(
        "yaml-c-depth",
        "engine/yamlread.py",
        "            if depth > MAX_DEPTH:",
        "            if depth > 10 * MAX_DEPTH:",
        (YAML_TESTS,),
        "YAML nested past the limit is read when libyaml composes it",
    ),
    Mutant(
        "yaml-c-self-anchor",
        "engine/yamlread.py",
        "                if id(child) in path:",
        "                if id(child) in path and False:",
        (YAML_TESTS,),
        "an anchor used inside itself gives a cycle of nodes instead of its error",
    ),
    Mutant(
        "yaml-c-last-line",
        "engine/yamlread.py",
        'not text.endswith("\\n") or ',
        "",
        (YAML_TESTS,),
        "a text without a last line break ends its root elsewhere than the pure loader says",
    ),
    Mutant(
        "probe-kept-past-a-rewrite",
        "broadcast/media.py",
        "st.st_mtime_ns, st.st_ctime_ns, st.st_ino",
        "st.st_mtime_ns, st.st_ino",
        (
            "tests/sponsors/test_media.py::test_a_film_s_probe_is_kept_across_processes_until_the_file_changes",
        ),
        "a film rewritten with its old size and mtime put back answered by its kept probe, not probed again",
    ),
    Mutant(
        "probe-kept-for-another-ffprobe",
        "broadcast/media.py",
        "st.st_ino, ffprobe_command()]",
        "st.st_ino]",
        (
            "tests/sponsors/test_media.py::test_a_film_s_probe_is_kept_across_processes_until_the_file_changes",
        ),
        "a film probed by one ffprobe answered from the cache when another (or none) is configured",
    ),
    Mutant(
        "db-folder-called-missing",
        "broadcast/core/db.py",
        "    if p.is_dir():\n        return",
        "    if False:\n        return",
        ("tests/hostile/test_database_path.py",),
        "a folder given as the database is called a missing file by eight commands",
    ),
    Mutant(
        "full-disk-called-read-only",
        "broadcast/core/db.py",
        'if kind == "readonly" and disk_full(path)',
        "if False and disk_full(path)",
        ("tests/hostile/test_full_database_disk.py",),
        "a database on a full disk is called read-only (season create, season team, import)",
    ),
    Mutant(
        "token-with-a-space-served",
        "broadcast/overlay/cli.py",
        "if c.isspace() or not c.isprintable()",
        "if not c.isprintable()",
        (
            "tests/hostile/test_bounded_reads.py::test_a_token_file_is_read_up_to_its_limit_and_must_be_one_visible_line",
        ),
        "a token file with a space inside is served: a token no OBS address can carry",
    ),
    Mutant(
        "receipt-nested-deep-internal-error",
        "broadcast/sponsors/receipt.py",
        "    except RecursionError:  # brackets nested",
        "    except ZeroDivisionError:  # brackets nested",
        ("tests/hostile/test_bounded_reads.py::test_json_files_nested_deep_or_endless_are_one_line",),
        "a receipt nested 30,000 deep is an internal error (RecursionError), exit 1",
    ),
    Mutant(
        "picture-pixels-uncounted",
        "broadcast/media.py",
        "if size[0] * size[1] > IMAGE_MAX_PIXELS:",
        "if False:",
        ("tests/hostile/test_pictures.py",),
        "a logo of 144 megapixels is accepted (decoded: 576 MB in the studio's memory)",
    ),
    Mutant(
        "season-logo-stored-unread",
        "broadcast/cli/season.py",
        "        check_logo(args.sponsor_logo)",
        "        pass",
        ("tests/hostile/test_pictures.py::test_season_set_checks_the_sponsor_logo_when_it_is_set",),
        "season set --sponsor-logo stores a folder, /dev/zero or a bomb PNG, to fail at the export",
    ),
    Mutant(
        "no-journal-called-an-older-build",
        "broadcast/core/db.py",
        "and _writable(Path(path)) and have == 0:",
        "and _writable(Path(path)) and have == -1:",
        (
            "tests/hostile/test_named_right.py::test_a_database_without_a_journal_is_not_called_an_older_build",
        ),
        "a season-only database opened read-only is called a file from an older build that needs an upgrade",
    ),
    Mutant(
        "obs-gone-exit-1",
        "broadcast/obs/cli.py",
        '        print(f"{exc.message_zh}：{exc}", file=sys.stderr)\n        return 2',
        '        print(f"{exc.message_zh}：{exc}", file=sys.stderr)\n        return 1',
        ("tests/hostile/test_obs_gone.py",),
        "an absent or dropped OBS is exit 1 from the obs commands, not the exit 2 of every bad input",
    ),
    Mutant(
        "os-error-cause-twice",
        "broadcast/cli/tools.py",
        '("" if why in said else f" ({why})")',
        'f" ({why})"',
        ("tests/hostile/test_outputs.py::test_an_output_under_a_file_says_so_once",),
        "an output under a file says its cause twice: (File exists) (File exists)",
    ),
    Mutant(
        "audit-placements-at-line-0",
        "broadcast/audit/cli.py",
        "        fail(str(exc))  # each error names its own file:line:col",
        '        fail(f"{placements_path}:0: {exc}")  # each error names its own file:line:col',
        ("tests/hostile/test_named_right.py::test_audit_names_a_bad_placements_file_s_line_once",),
        "audit names a bad placements file twice, the first time at a line 0",
    ),
    Mutant(
        "companion-page-written-in-place",
        "broadcast/overlay/companion_cli.py",
        "files.write_text(out, text)",
        'out.write_text(text, encoding="utf-8")',
        ("tests/hostile/test_outputs.py::test_a_full_disk_keeps_the_companion_page_that_was_there",),
        "a full disk leaves 4,096 bytes of the Companion page in place of the good one",
    ),
    Mutant(
        "selfplay-part-left",
        "engine/cli.py",
        "            os.unlink(part)",
        "            pass",
        ("tests/hostile/test_outputs.py::test_a_full_disk_leaves_no_half_file",),
        "a full disk under engine selfplay leaves a half record (.part) behind",
    ),
    Mutant(
        "report-xlsx-saved-in-place",
        "broadcast/sponsors/report.py",
        "    wb.save(buf)\n    with atomic_path(path) as tmp:\n        tmp.write_bytes(buf.getvalue())",
        "    wb.save(path)",
        (
            "tests/hostile/test_outputs.py::"
            "test_a_full_disk_under_the_sponsor_report_names_the_file_and_leaves_no_half_workbook",
        ),
        "a full disk under the sponsor report leaves an empty workbook and a traceback",
    ),
    Mutant(
        "glossary-badge-own-word",
        "engine/words.py",
        '"zha_shao": _term("诈烧"),',
        '"zha_shao": ("诈烧", "false burn"),',
        (GLOSSARY_TESTS + "test_the_engines_word_tables_say_the_glossarys_words",),
        "the console's badge says 诈烧 in other English than the referee's message (false burn)",
    ),
    Mutant(
        "glossary-message-own-word",
        "engine/messages.py",
        'MEN_EN = GLOSSARY["闷"]',
        'MEN_EN = "stuck with only 3s"',
        (GLOSSARY_TESTS + "test_the_referees_messages_say_the_glossarys_words",),
        "the referee's message says 闷 in other English than the badge (stuck with only 3s / stuck with 3s)",
    ),
)


def _files() -> list[str]:
    out = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    ).stdout.decode()
    return [f for f in out.split("\0") if f and (ROOT / f).is_file()]


def _copy_tree(dst: Path) -> None:
    for rel in _files():
        target = dst / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, target)


def _env(tree: Path) -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONDONTWRITEBYTECODE="1", QT_QPA_PLATFORM="offscreen")
    for k in ("PYTEST_ADDOPTS", "GOUJI_NO_SKIP"):
        env.pop(k, None)
    return env


def _pytest(tree: Path, tests: tuple[str, ...], timeout: float) -> tuple[str, float, str]:
    cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *tests]
    t0 = time.monotonic()
    try:
        r = subprocess.run(cmd, cwd=tree, env=_env(tree), capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", time.monotonic() - t0, ""
    seconds = time.monotonic() - t0
    tail = "\n".join((r.stdout + r.stderr).strip().splitlines()[-15:])
    if r.returncode == 0:
        return "survived", seconds, tail
    if r.returncode == 1:
        failed = re.findall(r"^FAILED (\S+)", r.stdout, re.M)
        return "killed", seconds, failed[0] if failed else tail
    return f"error (pytest exit {r.returncode})", seconds, tail


def _apply(text: str, m: Mutant) -> str | None:
    at = -1
    for _ in range(m.occurrence):
        at = text.find(m.old, at + 1)
        if at < 0:
            return None
    return text[:at] + m.new + text[at + len(m.old) :]


def _readme(rows: list[tuple[Mutant, str, float, str]], when: str) -> None:
    path = ROOT / "README.md"
    text = path.read_text(encoding="utf-8")
    killed = sum(1 for _, r, _, _ in rows if r == "killed")
    lines = [
        README_BEGIN,
        f"Last run ({when}): {killed} of {len(rows)} mutants killed "
        "(`.venv/bin/python scripts/mutation.py`; `--list` shows each change).",
        "",
        "| mutant | what it breaks | result | killed by |",
        "|---|---|---|---|",
    ]
    for m, result, _, detail in rows:
        by = f"`{detail}`" if result == "killed" and detail and "\n" not in detail else ""
        lines.append(f"| `{m.name}` | {m.breaks} | {result} | {by} |")
    lines.append(README_END)
    block = "\n".join(lines)
    if README_BEGIN in text and README_END in text:
        a, b = text.index(README_BEGIN), text.index(README_END) + len(README_END)
        text = text[:a] + block + text[b:]
    else:
        text = text.rstrip("\n") + "\n\n## Mutation check\n" + block + "\n"
    path.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--list", action="store_true", help="list the mutants and exit")
    ap.add_argument("--only", nargs="+", metavar="NAME", help="run only these mutants")
    ap.add_argument("--timeout", type=float, default=900, help="seconds per test run (default 900)")
    ap.add_argument("--readme", action="store_true", help="write the result into README.md")
    args = ap.parse_args(argv)
    mutants = list(MUTANTS)
    if args.only:
        unknown = sorted(set(args.only) - {m.name for m in MUTANTS})
        if unknown:
            print(f"mutation: no such mutant: {', '.join(unknown)} (see --list)", file=sys.stderr)
            return 2
        mutants = [m for m in MUTANTS if m.name in args.only]
    if args.list:
        for m in mutants:
            print(f"{m.name}\n  {m.file}: {m.old!r} → {m.new!r}")
            print(f"  breaks: {m.breaks}\n  tests: {' '.join(m.tests)}")
        return 0
    with tempfile.TemporaryDirectory(prefix="gouji-mutation-") as tmp:
        tree = Path(tmp)
        _copy_tree(tree)
        probe = subprocess.run(
            [
                sys.executable,
                "-c",
                "import broadcast, engine; print(broadcast.__file__); print(engine.__file__)",
            ],
            cwd=tree,
            env=_env(tree),
            capture_output=True,
            text=True,
        )
        if probe.returncode != 0 or any(not p.startswith(str(tree)) for p in probe.stdout.split()):
            print(
                f"mutation: the copy does not import its own code: {probe.stdout}{probe.stderr}",
                file=sys.stderr,
            )
            return 2
        missing = sorted({t for m in mutants for t in m.tests if not (tree / t.split("::")[0]).exists()})
        if missing:
            print(f"mutation: stale list, these tests are gone: {', '.join(missing)}", file=sys.stderr)
            return 2
        tests = tuple(dict.fromkeys(t for m in mutants for t in m.tests))
        print(f"baseline: {' '.join(tests)}", flush=True)
        result, seconds, tail = _pytest(tree, tests, args.timeout)
        if result != "survived":  # the unmutated copy must pass the tests
            print(
                f"mutation: the unmutated tree does not pass its tests ({result}):\n{tail}", file=sys.stderr
            )
            return 2
        print(f"baseline passes ({seconds:.0f} s)\n", flush=True)
        rows: list[tuple[Mutant, str, float, str]] = []
        for m in mutants:
            path = tree / m.file
            original = path.read_text(encoding="utf-8")
            mutated = _apply(original, m)
            if mutated is None:
                rows.append((m, "stale", 0.0, f"{m.file} no longer holds {m.old!r}"))
            else:
                path.write_text(mutated, encoding="utf-8")
                try:
                    result, seconds, detail = _pytest(tree, m.tests, args.timeout)
                finally:
                    path.write_text(original, encoding="utf-8")
                rows.append((m, result, seconds, detail))
            m_, result, seconds, detail = rows[-1]
            print(
                f"{result:>9}  {m.name:<34} {seconds:5.0f} s  {detail.splitlines()[0] if detail else ''}",
                flush=True,
            )
    killed = sum(1 for _, r, _, _ in rows if r == "killed")
    print(f"\n{killed} of {len(rows)} mutants killed")
    for m, result, _, detail in rows:
        if result not in ("killed",):
            print(f"  {result}: {m.name} — {m.breaks}\n{detail}")
    if args.readme:
        _readme(rows, time.strftime("%Y-%m-%d"))
    return 0 if all(r == "killed" for _, r, _, _ in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
