"""Reading recorded files back: ``media.fetch``, ``media.resolve`` and ``rehydrate_media``."""
