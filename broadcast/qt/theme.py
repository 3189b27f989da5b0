"""The console's dark studio theme: colours, type sizes and one style sheet.

Dark panels in a dim control room, large type readable from a metre away (the operator sits beside
the referee, not at the screen), one accent colour for "this needs you" (whose decision it is, the
entry line) and red for a refusal. Team colours come from the show state (the same as on air).
"""

from __future__ import annotations

from PySide6.QtGui import QColor, QFont, QPalette
from PySide6.QtWidgets import QApplication

BG = "#101318"
PANEL = "#181d24"
PANEL_2 = "#202732"
BORDER = "#323b48"
TEXT = "#eef2f7"
MUTED = "#a3adbb"
ACCENT = "#f5c542"  # whose decision it is; the entry line
OK = "#4cc38a"
WARN = "#ffab40"  # 报牌 (≤ 10 cards), live hints
DANGER = "#ff6159"  # refusals
FELT = "#1d4d34"

FONT_FAMILY = "Noto Sans CJK SC"
SIZE_BASE = 15  # px: menus, dialogs
SIZE_RECORD = 20  # the record list and the completion list
SIZE_ENTRY = 26  # the entry line
SIZE_NAME = 20  # seat names
SIZE_COUNT = 30  # cards left
SIZE_TOP = 22  # the top play in the middle of the table


def font(px: int, bold: bool = False) -> QFont:
    f = QFont(FONT_FAMILY)
    f.setPixelSize(px)
    f.setBold(bold)
    return f


STYLE = f"""
QMainWindow, QDialog {{ background: {BG}; }}
QWidget {{ color: {TEXT}; font-family: "{FONT_FAMILY}"; font-size: {SIZE_BASE}px; }}
QMenuBar {{ background: {BG}; color: {TEXT}; font-size: {SIZE_BASE + 1}px; }}
QMenuBar::item:selected, QMenu::item:selected {{ background: {PANEL_2}; }}
QMenu {{ background: {PANEL}; border: 1px solid {BORDER}; }}
QDockWidget {{ color: {ACCENT}; font-size: {SIZE_BASE + 2}px; font-weight: bold; }}
QDockWidget::title {{ background: {PANEL}; padding: 6px 10px; border-bottom: 1px solid {BORDER}; }}
QFrame#panel {{ background: {PANEL}; border: 1px solid {BORDER}; border-radius: 6px; }}
QLabel#panelTitle {{ color: {ACCENT}; font-size: {SIZE_BASE + 3}px; font-weight: bold; }}
QLabel#muted {{ color: {MUTED}; }}
QLineEdit#entry {{
    background: #0b0d11; border: 2px solid {ACCENT}; border-radius: 6px; padding: 6px 10px;
    font-size: {SIZE_ENTRY}px; font-weight: bold; color: {TEXT}; selection-background-color: {ACCENT};
    selection-color: #000;
}}
QLineEdit#entry[busy="true"] {{ border-color: {MUTED}; color: {MUTED}; }}
QLineEdit#entry[refused="true"] {{ border-color: {DANGER}; }}
QListView#completions, QTableView#record {{
    background: {PANEL}; border: 1px solid {BORDER}; font-size: {SIZE_RECORD}px; outline: 0;
    alternate-background-color: {PANEL_2};
}}
QListView#completions::item {{ padding: 3px 8px; }}
QListView#completions::item:selected {{ background: {ACCENT}; color: #000; }}
QTableView#record::item {{ padding: 2px 6px; }}
QTableView#record::item:selected {{ background: #34425a; color: {TEXT}; }}
QHeaderView::section {{ background: {PANEL_2}; color: {MUTED}; border: 0; padding: 4px; }}
QLabel#seatName {{ font-size: {SIZE_NAME}px; font-weight: bold; }}
QLabel#seatName[compact="true"] {{ font-size: {SIZE_NAME - 3}px; }}
QLabel#seatCount {{ font-size: {SIZE_COUNT}px; font-weight: bold; }}
QLabel#seatCount[compact="true"] {{ font-size: {SIZE_COUNT - 8}px; }}
QLabel#seatCount[hot="true"] {{ color: {WARN}; }}
QLabel#seatCount[title="true"] {{ color: {ACCENT}; }}
QLabel#seatBadges {{ font-size: {SIZE_BASE + 1}px; color: {WARN}; font-weight: bold; }}
QLabel#seatBadges[compact="true"] {{ font-size: {SIZE_BASE - 1}px; }}
QLabel#tableHeader {{ font-size: {SIZE_BASE + 2}px; color: {MUTED}; }}
QLabel#score {{ font-size: {SIZE_NAME}px; font-weight: bold; }}
QLabel#penalties {{ font-size: {SIZE_BASE + 1}px; color: {WARN}; }}
QLabel#verdict {{ color: {DANGER}; font-size: {SIZE_BASE + 3}px; }}
QLabel#verdict[hint="true"] {{ color: {WARN}; }}
QLabel#prompt {{ color: {ACCENT}; font-size: {SIZE_RECORD}px; font-weight: bold; }}
QLabel#banner {{ background: #3a2a10; color: {WARN}; border: 1px solid {WARN}; border-radius: 4px;
    padding: 6px 10px; font-size: {SIZE_BASE + 2}px; }}
QStatusBar {{ background: {BG}; color: {MUTED}; font-size: {SIZE_BASE}px; }}
QPushButton {{ background: {PANEL_2}; border: 1px solid {BORDER}; border-radius: 4px; padding: 6px 14px; }}
QPushButton:default {{ border-color: {ACCENT}; }}
QPushButton:focus {{ border-color: {ACCENT}; }}
QComboBox, QSpinBox, QLineEdit {{ background: #0b0d11; border: 1px solid {BORDER}; border-radius: 4px;
    padding: 4px 8px; }}
QComboBox QAbstractItemView {{ background: {PANEL}; selection-background-color: {PANEL_2}; }}
QTableWidget#help {{ background: {PANEL}; font-size: {SIZE_BASE + 2}px; border: 0; }}
QScrollBar:vertical {{ background: {PANEL}; width: 12px; }}
QScrollBar::handle:vertical {{ background: {BORDER}; border-radius: 6px; min-height: 24px; }}
"""


def apply(app: QApplication) -> None:
    """The studio's look on ``app``: Fusion, the palette, the base font and the style sheet. A program
    that opens a second window (the producer's from the console) finds it already applied and leaves it:
    setting them again would re-polish every widget the program has (~0.3 s of CPU a window)."""
    pal = _palette()
    base = font(SIZE_BASE)
    if (
        app.property(_APPLIED) is True
        and app.styleSheet() == STYLE
        and app.palette() == pal
        and app.font() == base
    ):
        return
    app.setStyle("Fusion")
    app.setPalette(pal)
    app.setFont(base)
    app.setStyleSheet(STYLE)
    app.setProperty(_APPLIED, True)


_APPLIED = "goujiTheme"  # set by apply() once the studio's style is the application's


def _palette() -> QPalette:
    pal = QPalette()
    for role, colour in (
        (QPalette.ColorRole.Window, BG),
        (QPalette.ColorRole.WindowText, TEXT),
        (QPalette.ColorRole.Base, PANEL),
        (QPalette.ColorRole.AlternateBase, PANEL_2),
        (QPalette.ColorRole.Text, TEXT),
        (QPalette.ColorRole.Button, PANEL_2),
        (QPalette.ColorRole.ButtonText, TEXT),
        (QPalette.ColorRole.Highlight, "#34425a"),
        (QPalette.ColorRole.HighlightedText, TEXT),
        (QPalette.ColorRole.ToolTipBase, PANEL),
        (QPalette.ColorRole.ToolTipText, TEXT),
        (QPalette.ColorRole.PlaceholderText, MUTED),
    ):
        pal.setColor(role, QColor(colour))
    return pal
