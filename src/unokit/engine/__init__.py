"""The rules engine: cards, actions, options, the game, views, events and records.

It imports no edition: an edition (:mod:`unokit.editions`) is data plus hooks over
:class:`~unokit.engine.edition.Edition`, registered by name when :mod:`unokit` is imported.
"""
