// The analysis board's answers (GET /api/rooms/CODE/analysis/SEAT, /analyse/STEP?seat=S, /position/STEP?seat=S).

/** A move: its notation and its words. */
type AnalysedMove = { action: string; label: string };

/** One decision of the analysed seat, rated. */
type AnalysedDecision = {
  step: number;
  round: number;
  played: AnalysedMove;
  best: AnalysedMove;
  /** the win chance of the move played, and of the best move (0..1) */
  win: number;
  best_win: number;
  loss: number;
  mistake: boolean;
  moves: number;
  exact: boolean;
};

/** Every decision of one seat in a finished match, rated. */
type MatchAnalysis = {
  code: string;
  seat: number;
  steps: number;
  rollouts: number;
  threshold: number;
  decisions: AnalysedDecision[];
  mistakes: number;
};

/** One move of a moment, rated. */
type MomentMove = AnalysedMove & { win: number; low: number; high: number; loss: number; best: boolean; played: boolean };

/** One moment of a finished match from one seat's knowledge. */
type MomentAnalysis = {
  code: string;
  step: number;
  steps: number;
  seat: number;
  position: string;
  deciding: boolean;
  analysis: null | { exact: boolean; rollouts: number; seconds: number; moves: MomentMove[] };
};

/** What the replay hands the board when it opens it. */
type BoardOptions = { code: string; names: string[]; steps: number; step: number; go: (step: number) => unknown };
