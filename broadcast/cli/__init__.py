"""The command lines of the components (``python -m broadcast season|import|export|sponsors|report|
qualifiers|verify-journal …``, each module named by ``broadcast/__main__.py``): apps, above the studio
whose store they open. A component package (show, game, sponsors, season, qualifiers) holds no command
line, so that nothing below the studio imports it."""
