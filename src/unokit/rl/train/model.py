"""The policy/value network in torch, and its weights file for the numpy bot (:mod:`unokit.bots.learned`)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import torch
from torch import nn

__all__ = ["PolicyNet", "export_weights", "load_weights", "masked_logits", "ship_weights"]


def masked_logits(logits: torch.Tensor, masks: torch.Tensor) -> torch.Tensor:
    """``logits`` with ``-inf`` for the actions a mask forbids (0)."""
    return logits.masked_fill(masks == 0, float("-inf"))


class PolicyNet(nn.Module):
    """An MLP on the observation vector (scaled into 0…1 by the encoder's bounds): action logits and a value."""

    def __init__(self, size: int, actions: int, high: npt.NDArray[np.float32], hidden: Sequence[int] = (512, 256)):
        super().__init__()
        scale = np.where(high > 0, 1.0 / np.maximum(high, 1e-6), 0.0).astype(np.float32)
        self.register_buffer("scale", torch.as_tensor(scale))
        layers: list[nn.Module] = []
        width = size
        for h in hidden:
            layers += [nn.Linear(width, h), nn.ReLU()]
            width = h
        self.body = nn.Sequential(*layers)
        self.policy = nn.Linear(width, actions)
        self.value = nn.Linear(width, 1)
        self.hidden = tuple(hidden)
        self.size = size
        self.actions = actions
        nn.init.orthogonal_(self.policy.weight, 0.01)
        nn.init.zeros_(self.policy.bias)
        nn.init.orthogonal_(self.value.weight, 1.0)
        nn.init.zeros_(self.value.bias)

    def scale_tensor(self) -> torch.Tensor:
        """What each observation value is multiplied by (1 / its bound; 0 where the bound is 0)."""
        scale = self.scale
        assert isinstance(scale, torch.Tensor)
        return scale

    def forward(self, observations: torch.Tensor, masks: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Masked logits and values of a batch."""
        x = self.body(observations * self.scale_tensor())
        return masked_logits(self.policy(x), masks), self.value(x).squeeze(-1)


def export_weights(net: PolicyNet, path: str | Path, meta: dict[str, Any], dtype: Any = np.float32) -> None:
    """Write ``net`` as the numpy bot reads it: weights as ``(in, out)`` matrices, ``meta`` as JSON."""
    arrays: dict[str, npt.NDArray[Any]] = {}
    linears = [m for m in net.body if isinstance(m, nn.Linear)]
    for i, layer in enumerate(linears):
        arrays[f"w{i}"] = layer.weight.detach().cpu().numpy().T.astype(dtype)
        arrays[f"b{i}"] = layer.bias.detach().cpu().numpy().astype(dtype)
    arrays["policy_w"] = net.policy.weight.detach().cpu().numpy().T.astype(dtype)
    arrays["policy_b"] = net.policy.bias.detach().cpu().numpy().astype(dtype)
    arrays["value_w"] = net.value.weight.detach().cpu().numpy().T.astype(dtype)
    arrays["value_b"] = net.value.bias.detach().cpu().numpy().astype(dtype)
    arrays["scale"] = net.scale_tensor().detach().cpu().numpy().astype(np.float32)
    full = {**meta, "layers": len(linears), "hidden": list(net.hidden), "size": net.size, "actions": net.actions}
    arrays["meta"] = np.array(json.dumps(full))
    np.savez_compressed(path, **arrays)  # type: ignore[arg-type]


def load_weights(net: PolicyNet, arrays: dict[str, npt.NDArray[Any]]) -> None:
    """Set ``net``'s parameters from a weights file's arrays (as :func:`export_weights` wrote them)."""
    linears = [m for m in net.body if isinstance(m, nn.Linear)]
    with torch.no_grad():
        for i, layer in enumerate(linears):
            layer.weight.copy_(torch.as_tensor(arrays[f"w{i}"].astype(np.float32).T))
            layer.bias.copy_(torch.as_tensor(arrays[f"b{i}"].astype(np.float32)))
        net.policy.weight.copy_(torch.as_tensor(arrays["policy_w"].astype(np.float32).T))
        net.policy.bias.copy_(torch.as_tensor(arrays["policy_b"].astype(np.float32)))
        net.value.weight.copy_(torch.as_tensor(arrays["value_w"].astype(np.float32).T))
        net.value.bias.copy_(torch.as_tensor(arrays["value_b"].astype(np.float32)))


def ship_weights(source: str | Path, target: str | Path) -> None:
    """Copy a weights file for the package: its matrices in float16 (half the size; the bot computes
    in float32), its bounds and description as they are."""
    with np.load(source) as data:
        arrays = {
            key: value.astype(np.float16) if key.startswith(("w", "b", "policy_", "value_")) else value
            for key, value in data.items()
        }
    np.savez_compressed(target, **arrays)
