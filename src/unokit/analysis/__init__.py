"""Many games at once: simulations, tournaments between bots, and the statistics a designer asks for;
and the rating of one player's decisions (:func:`analyse`, :func:`analyse_record`: see
:mod:`unokit.analysis.ratings`)."""

from unokit.analysis.ratings import (
    Analysis,
    AnalysisError,
    DecisionRating,
    MoveRating,
    RecordAnalysis,
    analyse,
    analyse_record,
)

__all__ = ["Analysis", "AnalysisError", "DecisionRating", "MoveRating", "RecordAnalysis", "analyse", "analyse_record"]
