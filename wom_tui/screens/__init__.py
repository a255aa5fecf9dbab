"""The app's screens. Shell screens (menu, register, scoreboard, help, errors, confirm) live here;
the game screens (``wom``, ``solo``) are opened by name through ``WomApp.open_screen``."""
