"""The ``eights`` console command."""
