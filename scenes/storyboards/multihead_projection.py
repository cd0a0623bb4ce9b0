"""Xᵀ broadcast along the head axis, the matmul per head, then the turn of every head's slice (stages 14-16)."""

import numpy as np
from manim import DOWN, UP, Dot, rush_from

from tensors import matmul_products
from scenes.base import StageScene
from scenes.components.fades import appear, at_once, swap, vanish
from scenes.components.labels import BlockLabel, shape_text
from scenes.components.projection import project
from scenes.layout import Margins, ghost
from scenes.motions.broadcast import broadcast_copies
from scenes.motions.matmul import batched_matmul, sign_between
from scenes.motions.heads import focus_heads, form_pairs, pair_heads, turned_heads
from scenes.motions.turns import transpose_beside, turn_sign

__all__ = ["MultiheadProjectionStage"]


class MultiheadProjectionStage(StageScene):
    """Broadcast Xᵀ along the head axis, batched matmul, optional turn of each head's slice."""
    code_steps = {"matmul per head": (0,), "turn": (1,)}

    weight_key = before_key = result_key = ""  # a stage names its tensors ...
    weight_name = result_name = transpose_code = ""  # ... and what the picture calls them
    first_of = ""  # the stage whose storyboard this one repeats ("" for the first)
    single = ("", 0)  # the single-head matrix each head's slice stands for, and its stage
    turn_code = ""  # the turn on the closing shot's arrow ("swapaxes(1, 2)"); none: no turn
    speed = 1.4
    cells = 2  # of head 0's row 0 formed one by one: stage 7's matmul again (the repeats of 14 show one)
    view = (0.5, 0.3)

    def storyboard(self):
        heads = self.cfg.heads
        before = self.trace[self.before_key]
        weight = self.block(self.weight_key, self.weight_name, direction=DOWN, stacked=True)
        xt = self.block("s02_embedded_sentence", "Xᵀ", transposed=True, direction=DOWN, stacked=True)
        # room for what Xᵀ becomes: one copy per head, along the head axis
        room = ghost(xt, (heads,) + xt.grid_shape[1:])
        broadcast_name = "Xᵀ broadcast"
        room.label = BlockLabel(broadcast_name, (heads,) + xt.source_shape, self.theme, xt.value_range, stacked=True)
        room.label.side = DOWN
        self.layout.row(weight, room, gap=1.6, margins=Margins(top=0.8))  # the counter above the copies
        xt.scale(room.pitch / xt.pitch).align_cell((0, 0, 0), room.cell_center(0, 0, 0))
        self.step("operands")
        if repeats := self.repeated_heads():  # said where head 0's matrix is in sight (said in stage 13 alone, no
            # still caught it, and three readers took head 0's queries equal to stage 8's keys for wrong data:
            # 14_0192, the 39th to 41st); every head that repeats, none said to be new (head 1 is U_value's)
            # said as the seed's quirk, not a fact of attention ("head 0 is stage 8's K" over multi-head
            # queries read as queries confused with keys: 14_0648, a lecturer's first complaint, the 47th)
            self.say(f"a quirk of the blog's seed: torch.rand starts again, so {self.weight_name}{repeats}")
        elif self.first_of:
            self.say(f"as stage {self.first_of}, with {self.weight_name}: {heads} heads against one Xᵀ")
        else:
            self.say(f"{self.weight_name}: stage {self.single[1]}'s {self.single[0]}, once per head ({heads}, in "
                     f"depth); Xᵀ is one 2D matrix")
        # the "·" between them from the first frame: an operation, not two blocks (14_0064, the 34th reader)
        dot = sign_between(self.layout, weight, room)
        self.play(appear(weight), appear(xt), appear(self.layout.place(weight)), appear(self.layout.place(xt)),
                  appear(dot))

        self.step("broadcast")
        self.say(f"broadcasting: matmul uses the one Xᵀ for every head, as if copied along the head axis: ×{heads}")
        counter_at = self.layout.beside([room], Dot(), UP, buff=0.35).get_center()
        counter_at = project(self.camera, counter_at[None])[0]
        copied = broadcast_copies(self, self.layout, xt, heads, [*counter_at, 0.0], run_time=2.0 / self.speed,
                                  name=broadcast_name)
        stack = copied.block

        self.step("matmul per head")
        self.play(vanish(copied.counter), run_time=0.3)
        done = batched_matmul(self, self.layout, self.viewpoint, weight, stack, before,
                              matmul_products(weight.values[0], stack.values[0]),
                              names=(self.weight_name, "Xᵀ", self.result_name), say=self.say,
                              speed=self.speed, view=self.view, cells=self.cells, together=True,
                              stack=False, signs=[dot])  # the heads side by side next: no stacked shot
        self.weights, self.operand = (weight.values, weight.value_range), done.operands[1]
        self.finish(done.block, done.leaving)

    def repeated_heads(self) -> str:
        """The weight's heads that hold stage 6's numbers (:meth:`stage6_heads`),
        written as indexed ("[0] holds stage 6's U_key, [1] its U_value[:17]"),
        or "" for none."""
        parts = []
        for head, name, rows in self.stage6_heads(self.trace[self.weight_key]):
            whole = rows == self.trace[f"s06_U_{name}"].shape[0]
            parts.append(f"[{head}] " + ("holds stage 6's " if not parts else "") + f"U_{name}"
                         + ("" if whole else f"[:{rows}]"))
        return ", ".join(parts)

    def heads_differ(self) -> str:
        """What the heads are for, said from the result (:meth:`finish`'s
        last caption): each token's rows in the heads' slices all different,
        or which heads agree; "" for one head."""
        final = self.trace[self.result_key]
        heads = len(final)
        if heads < 2:
            return ""
        plural = self.result_name.split("_")[-1]  # multihead_queries: queries
        agree = [(a, b) for a in range(heads) for b in range(a + 1, heads)
                 if any(np.allclose(final[a, i], final[b, i]) for i in range(final.shape[1]))]
        if agree:
            a, b = agree[0]
            return f"each token gets {heads} {plural}, one per head; heads {a} and {b} give a token the same one"
        return f"each token gets {heads} different {plural}, one per head"

    def heads_formed(self, result, leaving, room_for=None):
        """The batched matmul seen as one, then the heads side by side. With
        more than one head: every head's own weight slice beside its result
        (head 0's row 0 formed), the one Xᵀ left of them
        (:func:`~scenes.motions.heads.pair_heads`; ``leaving``, the bench's
        signs and names, go as they move), and row i of every head formed at
        once, row after row, a frame on the weight row that makes it (the
        rows filling in small heads with no operand in sight read as results
        appearing: 14_0328, 15_0232, 16_0300; head after head, each head's
        second was missed by every still: 14_0578). Then head 0 large, with
        the tokens on its columns, the others small beside it."""
        heads, rows, cols = result.grid_shape
        pairs = None
        if heads > 1:
            # every head's matmul beside the others, its operand with it: the batch seen being computed
            # (rows filling in small heads with no operand in sight read as results, not a computation:
            # 14_0328, 15_0232, 16_0300)
            pairs = pair_heads(self, self.layout, self.viewpoint, result, self.weights, self.operand,
                               (self.weight_name, self.result_name), leaving=leaving, told=self.saying(
                                   f"the batched matmul: every head's own {self.weight_name}[n] against the one "
                                   f"Xᵀ; head 0's row 0 is formed"))
            self.step("heads")
            drawn = len(pairs.results)
            alike = f"; heads {drawn}–{heads - 1} alike, not drawn" if pairs.unseen else ""
            form_pairs(self, self.layout, pairs, run_time=min(7.5, 1.5 + 0.35 * rows), told=self.saying(
                f"row i of all {heads} heads at once, row after row, each from row i of its own "
                f"{self.weight_name}[n]{alike}"))
            self.wait(0.5)
            leaving = pairs.leaving()
        told = self.saying(f"{self.result_name}: {shape_text(result.source_shape)}, one {shape_text((rows, cols))} "
                           f"slice per head, a token in each column" + ("; head 0 large, with the tokens"
                                                                        if heads > 1 else ""))
        # the heads go side by side from where they were formed, the caption with them (said first, it held the
        # block still there: 15_0139); the step begins once they stand there
        shown = focus_heads(self, self.layout, self.viewpoint, result, self.result_name, self.cfg.sentence,
                            rows_are_tokens=False, columns_are_tokens=True, room_for=room_for, leaving=leaving,
                            run_time=1.0, rate_func=rush_from,  # the block alone at the edge: 15_0294, 15_0141
                            told=told, slices=pairs.every if pairs else None)
        if pairs is None:
            self.step("heads")
        return shown

    def finish(self, result, leaving):
        """The heads side by side (head 0 large, with the tokens on its
        columns; ``leaving``, the matmul's operands, go as they move), then
        the turn, seen on head 0 as a copy: its block before the turn left,
        column i laid down as row i of the block after it, right
        (:func:`~scenes.motions.turns.transpose_beside`); then every head's
        slice turned alike (a turn in place, of the nine slices at once, read
        as a T-shaped glitch: 14_0482, 15_0426, the 36th reader)."""
        final = self.trace[self.result_key]
        heads, rows, cols = result.grid_shape
        shown = self.heads_formed(result, leaving, room_for=(cols, rows))
        self.wait(0.6)
        self.step("turn")
        every = "every head's slice" if heads > 1 else "the one head's slice"
        turned = turned_heads(self.layout, shown, final, self.cfg.sentence)
        scale_of = shown.focus.label.scale_of
        shown.focus.label.within = None
        name = f"{self.result_name}[0]"  # the code's own name for it before and after the turn, as 19's values
        shape = shape_text(final.shape[1:])
        focus, beside = transpose_beside(
            self, self.layout, self.viewpoint, shown.focus, final[0],
            lambda grid: self.layout.name(grid, name, DOWN, scale_of=scale_of, note=f"after {self.turn_code}"), name,
            self.cfg.sentence, turn_sign(self.theme, self.turn_code), before_note=f"before {self.turn_code}",
            speed=1.0, told_move=lambda: self.saying(
                f"{self.transpose_code}: in {every}, column i becomes row i" + (", head 0 here" if heads > 1 else "")),
            leaving=[*shown.words, *shown.others, shown.tags] + (
                [shown.others_label] if shown.others_label is not None else []),
            told=lambda: self.saying(f"column 0 of head 0 (token 0, \"{self.cfg.sentence[0]}\") becomes row 0"),
            told_rest=lambda: self.saying(f"column i becomes row i, one after another: {shape}"),
            say_end=lambda: self.say(f"{name}: {shape}, token i in row i"))
        if heads > 1:
            self.step("every head")
            self.every_head(focus, turned, [*beside, focus.row_words], final)
        # what the heads are for, the closing words, alone (the seed's quirk there read as trivia undermining the
        # point of multi-head attention: 14_0640, the 61st reader; in brackets after them, "head 0 equals stage
        # 8's K" read as queries equal to keys: 14_0640, the 66th and 67th); the quirk is said where head 0's
        # matrix is in sight (the "operands" step)
        if differ := self.heads_differ():
            self.wait(0.6)
            self.say(differ)

    def every_head(self, focus, turned, beside, final):
        """The closing shot: the whole tensor again, every head turned (head 0
        back from the turn's shot to where it stood, large with a token's
        word on each row; the others beside it), not head 0 alone (14_0770)."""
        target = turned.focus  # where head 0 stands among the others (only its place is read)
        # its name without the turn's "after swapaxes(1, 2)": one block of that name here (the line, not in the
        # room the shot kept for the name, stood on a two-line caption: 14, 16 long words)
        old = focus.label
        self.layout.name(focus, old.tensor_name, DOWN, scale_of=old.scale_of, note=None)
        self.layout.place(focus)
        target.label = focus.label
        focus.label.within = turned.area
        self.play(*[vanish(m, rate_func=at_once) for m in beside], *swap(old, focus.label, rate_func=at_once),
                  focus.animate.become(target),
                  self.layout.follow(focus, target), *self.saying(
                      f"{self.result_name}: {shape_text(final.shape)}, every head's slice turned alike"),
                  run_time=0.8)
        focus.row_words = turned.words[0]
        others = [*turned.others, turned.tags] + ([turned.others_label] if turned.others_label is not None else [])
        self.play(*map(appear, turned.words), *map(appear, others), run_time=0.5)
