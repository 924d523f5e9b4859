"""``python -m wordvec``: the command line."""

from wordvec.cli import main

main()
