"""The show component: show fields, lower third, graphics on the preview/program buses (TAKE, panic)."""
