"""The room core: a room's rules and state without any I/O.

What a room is and what it may do lives here, apart from how it is reached and kept: no sockets,
no store, no event loop, no clock read (the time is passed in) and no randomness but what it is
given.  The shell around it (:mod:`unokit.web.rooms`: the room's lock, its writes to the store,
its messages to the connections, its scheduled steps) asks the core what a command changes, what
must be stored first, what each member is sent and when the next automatic step is due, then does
it.  The core imports nothing of the shell, the transport (:mod:`unokit.web.app`), the hub or the
store; the storage imports its rows from here.

- :mod:`~unokit.web.core.rows`: the seat and chat rows, as the store keeps them.
- :mod:`~unokit.web.core.seats`: a room's seats and the lobby's rules (take, fill, empty, kick,
  hand the host on, seat the late arrivals).
- :mod:`~unokit.web.core.chat`: what a chat line may hold and the messages that carry it.
- :mod:`~unokit.web.core.social`: avatars, colours and the voice chat's rules.
- :mod:`~unokit.web.core.rematch`: who has voted, when the rematch begins and how it is seated.
- :mod:`~unokit.web.core.writes`: the writes a change asks of the store, as data.
- :mod:`~unokit.web.core.changes`: a command's outcome (:class:`~unokit.web.core.changes.Change`): the
  writes, the state they make the room's, the messages addressed to seats, the connections let go.
- :mod:`~unokit.web.core.room`: a room's state, its queries, its messages and its next step.
"""
