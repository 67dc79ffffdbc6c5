"""The rules engine: the game state machine, agents and simulation (rules in docs/rules.md).

Modules:
  table      compile_deck(deck) -> Table: cards as small ints, legality cache
  state      State, its typed events and the named operations that write it (and log the events)
  decision   Decision, DecisionKind, Observation, Glance, the Bot and Policy protocols, IllegalAnswer
  machine    Machine: a hand's seats, policies and stepping (ask, what is left after a decision as
             frames), copies (clone) and determinizations, the validity check
  knowledge  known_cards(): the cards a seat knows to be in other hands (what a determinization keeps)
  engine     Game(table, n, seed, agents): the deal, the turn (written once) and the game you step:
             start(), decision, apply(answer), run() (docs/engine.md)
  actions    PLAY: one handler per effect primitive (played, and as the start card); challenges, duels,
             the UNO call and its catch, Mercy
  agents     RandomAgent, GreedyAgent (its VALUES: one valuation per primitive)
  expert     ExpertAgent: determinized rollouts from its own observation (docs/expert.md)
  bots       AGENTS: every bot by its name, make(), check(): the one registry
  replay     replay(table, n, log) -> State: each event re-applies itself through the state's operations
  record     GameRecord, the Outcome/Cause/Event words and CAUSES: what one game leaves for the reports
  match      Match (the hands of a match, dealt in turn), play_match(): hands until the target score
  simulate   simulate(deck, players, PlayOptions) -> SimulationReport (.to_json()); play_record(); to_text()
  checks     card_rule_findings(): the engine's part of ``deckgen check`` (the rules against the cards)
  scenario   situation() and Scripted: exact table situations for tests and "what if"

Rule options live in :mod:`deckgen.options` (model level). Every decision the engine takes where
the published rules are silent or contradict each other is written down, with its test, in
docs/rules.md; the generated rulebooks state the same.
"""

