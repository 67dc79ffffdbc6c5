"""The rules engine: rule options and presets, the game state machine, agents and simulation.

Modules:
  options    rule options (OPTIONS), presets (PRESETS), resolve()
  table      compile_deck(deck) -> Table: cards as small ints, legality cache
  state      State and its named operations, each returning a frozen event (a tuple)
  engine     Game(table, n, seed, agents).run(): one hand; play_game()
  actions    card effects from effect primitives, stacking, challenge, duel, roulette, Mercy
  agents     RandomAgent, GreedyAgent, AGENTS, make_agent()
  replay     replay(table, n, log) -> State
  match      play_match(): hands until the target score
  simulate   simulate(deck, players, games, seed, agent) -> JSON-ready report; to_text()
  checks     rules_check(): the engine's part of ``deckgen check``
  scenario   situation() and Scripted: exact table situations for tests and "what if"

Decisions the engine takes where games.md is silent (the rulebook states them):
  - The 7 and 0 of the 7-0 rule, and any hand swap or pass, do nothing when the card was the
    player's last: they went out and the hand ends.
  - A Wild Draw Four may be challenged only when it is not stacked on; stacking answers ignore
    its legality rule. A targeted draw (chosen victim) is never stacked.
  - Start card under the classic rule: only skip, reverse, draw, everyone-draws, colour choice,
    roulette and flip-all act on the first player; other effects (skip all, discard all, swaps,
    duels) need someone to have played the card and do nothing.
  - Cards discarded by Discard All or in a duel go under the top card; a duel card answering a
    duel becomes the top card. Set-aside start cards join the next reshuffle.
  - The UNO call: the next player is the one who may catch a player who forgot it.
  - Jump-in: wild and colourless cards are never identical to the top card.
  - A player who may not draw instead of playing (No Mercy) plays a legal card when asked to draw.
  - Duels: a duel card that was its player's last card still runs its duel, then that player
    wins (nobody can go out before them); a discard that empties a hand during a duel wins at
    once; a counter-duel with the last card runs its duel, then wins. A player who is out takes
    no part in the rest of the duel.
  - The UNO call also follows a duel answer (a discard or a counter-duel) that leaves one card.
  - A stacked penalty waits for the next player even if they have a lost turn to serve (from a
    targeted draw); they answer it, and still lose the turn they owed.
  - Wild All Flip turns every Power card at once; "all red, all green" is checked afterwards.
  - A penalty that falls on the player who played it (two-player Wild Reverse Draw Four) is not
    drawn when that card was their last: they went out.
"""
