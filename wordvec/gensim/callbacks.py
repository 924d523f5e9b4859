"""gensim's ``CallbackAny2Vec``, and the bridge that calls such callbacks from wordvec's runner.

gensim calls each hook with the model being trained; wordvec's runner calls its callbacks with
the epoch's figures (:mod:`wordvec.training.runner`). :class:`GensimHooks` is one wordvec
callback that hands the face's model to every gensim callback instead, and adds each epoch's
summed loss to the model's ``running_training_loss`` first, as gensim's ``compute_loss`` does.
It logs the run's progress at INFO, as gensim's training does (shown where a script configures
logging, as gensim's tutorials do).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

logger = logging.getLogger(__name__)


class CallbackAny2Vec:
    """Base class of gensim's training callbacks: override the hooks you need; each is called
    with the model (``on_epoch_end(model)`` after every epoch, and so on)."""

    def on_epoch_begin(self, model: Any) -> None:
        """Called before each epoch."""

    def on_epoch_end(self, model: Any) -> None:
        """Called after each epoch."""

    def on_train_begin(self, model: Any) -> None:
        """Called before the first epoch of a ``train``."""

    def on_train_end(self, model: Any) -> None:
        """Called after the last epoch of a ``train``."""


class GensimHooks:
    """A wordvec callback that calls gensim callbacks with ``model``."""

    def __init__(self, model: Any, callbacks: Sequence[Any]):
        self.model = model
        self.callbacks = list(callbacks)

    def _each(self, hook: str) -> None:
        for callback in self.callbacks:
            method = getattr(callback, hook, None)
            if callable(method):
                method(self.model)

    def on_train_begin(self, epochs: int) -> None:
        logger.info("training model with %i workers and %i features for %i epochs",
                    self.model.workers, self.model.vector_size, epochs)  # fmt: skip
        self._each("on_train_begin")

    def on_epoch_begin(self, epoch: int) -> None:
        self._each("on_epoch_begin")

    def on_epoch_end(self, end: Any) -> None:
        if self.model.compute_loss:
            self.model.running_training_loss += end.loss_sum
        logger.info("EPOCH %i: %.0f effective words/s, alpha %.6f, loss %.4f a prediction",
                    end.epoch - 1, end.words_per_second, end.alpha, end.loss)  # fmt: skip
        self._each("on_epoch_end")

    def on_train_end(self, report: Any) -> None:
        rate = report.words / max(report.seconds, 1e-9)
        logger.info("training on %i effective words took %.1fs, %.0f effective words/s",
                    report.words, report.seconds, rate)  # fmt: skip
        self._each("on_train_end")
