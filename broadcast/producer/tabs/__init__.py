"""The producer's tabs, one module each (as the console's docks): sponsors and contracts
(:mod:`.sponsors`), the slots as forms with their preview (:mod:`.slots`), roster and season
(:mod:`.season`), the season's delivery (:mod:`.delivery`). Each works on the window's
:class:`~broadcast.producer.workspace.Workspace` and asks the window
(:class:`~broadcast.producer.widgets.TabHost`) only to list and open slots."""
