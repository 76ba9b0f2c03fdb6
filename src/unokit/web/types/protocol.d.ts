// What the server sends the browser client, as the client's type-check sees it (docs/web.md describes
// every message).  Global declarations, used by the modules of ../static/ in their JSDoc types; this
// file is not served.

/** A message from the server (checked where it is read). */
type Message = Record<string, any>;

type SeatInfo = {
  seat: number;
  name: string;
  kind: string;
  away?: boolean;
  ready?: boolean;
  auto?: boolean;
  /** the player's avatar and colour (names; null: none chosen), a bot's "robot" */
  avatar?: string | null;
  colour?: string | null;
  /** in the room's voice chat */
  voice?: boolean;
};

/** The room options (`lobby.options`, `update.options`). */
type RoomOptions = { timer: number; public: boolean; late_join: boolean; tutorial?: boolean };

/** `update.rematch` once the match is over. */
type RematchStatus = { votes: number[]; waiting: number[] };

/** `update.reading` while a round's results hold the next round: the seats still reading. */
type ReadingStatus = { waiting: number[]; remaining: number; total: number };

type LegalEntry = { action: string; label?: string; type?: string; card?: string; seat?: number; colour?: string };

type GameEvent = {
  kind: string;
  text?: string;
  value: number;
  seat: number;
  scores?: number[];
  cards?: string[];
  points?: number[];
};

/** The open decision's details (`view.decision`). */
type Decision = Record<string, any>;

type PublicInfo = {
  /** id, text and reading of each rule card shown */
  rule_cards_shown?: [number, string, string][];
  rule_cards_in_dispenser?: number;
  rule_cards_used?: number;
  lever_outcomes?: string[];
};

/** The table as this seat (or a spectator) sees it. */
type View = {
  edition?: string;
  players: number;
  hand_sizes: number[];
  actor: number;
  phase: string;
  dealer: number;
  uncalled: number[];
  called?: number[];
  scoring: string;
  scores: number[];
  top_card: string;
  draw_pile_size: number;
  discard_pile_size: number;
  colour: string | null;
  direction: number;
  /** each seat's team (house rule team play; empty without teams) */
  teams?: number[];
  /** the match winner's team (-1 without teams or before the end) */
  winning_team?: number;
  target_score: number;
  round: number;
  winner: number;
  hand?: string[];
  decision?: Decision;
  public?: PublicInfo;
  /** public state beyond the basics (the stacked penalty, seats out of the match or of the round) */
  state?: { stack_total?: number; knocked?: number[]; out?: number[] };
  /** the last finished round's result (the web sends the last one only) */
  round_results?: RoundResult[];
};

/** A finished round (`unokit.engine.results.RoundResult.to_dict`). */
type RoundResult = {
  round: number;
  winner: number;
  /** the winner's team (-1 without teams) */
  team: number;
  /** how the round ended: "out", "blocked" (the lowest hand won) or "mercy" (the last one left won) */
  ending: string;
  seats: number[];
  /** each seat's cards at the round's end */
  hands: string[][];
  mercy_hands: string[][];
  points: number[];
  points_won: number;
  scores: number[];
  knocked_out: number[];
  match_over: boolean;
};

/** A rule option as `GET /api/options` offers it. */
type OptionSpec = {
  default?: any;
  choices?: any[];
  type?: string;
  min?: number;
  max?: number;
  editions?: string[];
  /** `house` for a house rule */
  group?: string;
  /** the option this one works with (refused while that one is at its default) */
  requires?: string;
  label?: string;
  help?: string;
  /** each choice in words */
  choice_labels?: Record<string, string>;
};

/** What `GET /api/options` answers. */
type Options = {
  editions?: string[];
  edition_titles?: Record<string, string>;
  /** each edition in a sentence */
  edition_summaries?: Record<string, string>;
  rules?: Record<string, OptionSpec>;
  /** each preset's house rules (the others at their defaults) */
  presets?: Record<string, Record<string, any>>;
  bots?: string[];
  /** the levels of bot that play some tables only (the trained bots): [edition, players] of each */
  bot_tables?: Record<string, [string, number][]>;
  /** the languages the server speaks (`lang` of the first message, `?lang=`) */
  languages?: string[];
  /** the card terms (colour.*, kind.*, card.*) in the asked language, for i18n.js's `term` */
  terms?: Record<string, string | Record<string, string>>;
};

type MyRuleCard = { text: string; reading: string; enforced: boolean };

type Lobby = {
  code?: string;
  seats: SeatInfo[];
  you?: number;
  host?: number;
  rules?: Record<string, any>;
  edition: string;
  players?: number;
  rule_cards?: { count: number; mine?: MyRuleCard[]; suggestions?: unknown[] } | null;
  /** the bots' level */
  bot?: string;
  options?: RoomOptions;
};

/** A public room, as `GET /api/rooms` lists it. */
type PublicRoom = {
  code: string;
  edition: string;
  players: number;
  open: number;
  host: string | null;
  options?: RoomOptions;
  rules?: Record<string, any>;
};

/** Where a room stands, as `GET /api/rooms/{code}` tells the join page. */
type RoomStatus = {
  status: "lobby" | "playing" | "finished";
  edition: string;
  players: number;
  /** open seats (in the lobby) */
  open: number;
  /** bot seats a newcomer may still claim (during a match) */
  late_seats: number;
  options?: RoomOptions;
};

/** A chat line. */
type ChatMessage = {
  id: number;
  seat: number | null;
  name: string;
  text: string;
  time: number;
  /** a quick reaction (live messages only), and the seat it is aimed at */
  reaction?: string;
  to?: number | null;
};

/** What the server answers for one step of a replay. */
type ReplayStep = Record<string, any>;
