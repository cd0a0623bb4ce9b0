"""The reusable motions: turn, transpose, matmul, broadcast, softmax, heads, bias.

Each motion is written once and used by every stage that needs it. A motion
takes the scene it plays on (Manim's ``play``, ``add``, ``remove``,
``wait``), the collaborators it uses (the layout, the legend, the viewpoint,
a ``say`` for captions), the grids already on screen and the values it
reveals (from the trace or :mod:`tensors.derive`); it plays its animations
and returns what it leaves on screen, named (a small dataclass where there
is more than one thing). None computes tensor values.

- :mod:`.turns` — a rigid turn, a transpose, a permute per head;
- :mod:`.matmul` — the matmul box, and per head;
- :mod:`.vectors` — a matrix times one vector, flat;
- :mod:`.broadcast` — copies along the head axis;
- :mod:`.softmax` — row softmax, and the causal mask before it;
- :mod:`.heads` — head slices pulled apart into a grid;
- :mod:`.bias` — a bias added to every row.
"""
