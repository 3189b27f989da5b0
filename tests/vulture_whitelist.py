"""What vulture cannot see used (``tests/test_dead_code.py``): it is read by vulture, never run.

Reducers need no line here: they are handed to their component by their table of actions and called by
the store by action type (``--ignore-decorators @action``, ``pyproject.toml``).
"""

import sqlite3
import tarfile

import openpyxl.cell
import openpyxl.packaging.core
import openpyxl.worksheet._writer
import openpyxl.worksheet.worksheet
import psycopg
from PySide6 import QtCore, QtWidgets

import broadcast.overlay
from broadcast.core.component import Context
from broadcast.core.store import ShowStore
from broadcast.qualifiers.board import BoardRow
from engine.game import Game
from engine.native import _PureFinder

# Qt calls these overrides of its virtual methods
QtWidgets.QWidget.paintEvent
QtWidgets.QWidget.showEvent
QtWidgets.QWidget.sizeHint
QtWidgets.QWidget.minimumSizeHint
QtWidgets.QWidget.mouseMoveEvent
QtWidgets.QWidget.hasHeightForWidth
QtWidgets.QWidget.heightForWidth
QtWidgets.QWidget.focusNextPrevChild
QtCore.QObject.eventFilter
QtCore.QAbstractItemModel.columnCount
QtCore.QAbstractItemModel.headerData

# attributes libraries read once they are set
sqlite3.Connection.row_factory
sqlite3.Connection.text_factory
openpyxl.worksheet.worksheet.Worksheet.freeze_panes
openpyxl.cell.Cell.alignment
openpyxl.cell.Cell.number_format
openpyxl.packaging.core.DocumentProperties.modified  # the XLSX's docProps/core.xml (season/export.py)
openpyxl.worksheet._writer.WorksheetWriter.get_stream  # overridden: the writer calls it
psycopg.ServerCursor.itersize
tarfile.TarFile.members  # emptied as a stream goes, so that a million members are not kept

# fields written out as they are (dataclasses.asdict)
BoardRow.thirds
BoardRow.fourths
BoardRow.fifths

# what a reducer may read of its context (the store sets it on replay)
Context.replaying

# the import system calls a module's __getattr__ for a name it lacks (broadcast/overlay: the server imported
# on first use)
broadcast.overlay.__getattr__

# the import system calls a meta-path finder's find_spec (engine/native.py: the pure-Python fallback)
_PureFinder.find_spec

# benchmarks/engine_vs_openspiel.py reads it in the child interpreter it starts (code in a string)
Game.move_count

# the count of actions whose journal sync failed (each one logged): tests/core/test_store.py reads it
ShowStore.sync_errors
