"""Stage 18: scale and softmax along the rows of every head, every head at once.

Stage 11 showed the softmax row by row; here every head goes through the same
three states together, so a block never holds two meanings at once: the
scores ÷ √d_k, their exponentials (each row ÷ its largest, its own scale),
the weights. Head 0 is large with its words; head 0's row 0 is written out.
"""

import numpy as np
from manim import DOWN, LEFT

from tensors.roles import heads_alike

from scenes.base import StageScene
from scenes.components.colorbar import MASKED_SIGN
from scenes.components.fades import appear, at_once, swap, vanish
from scenes.components.labels import note_text
from scenes.components.numbers import tick_values
from scenes.motions.heads import fill_heads, focus_heads, role_lines
from scenes.layout import Margins
from scenes.motions.matmul import SLOT_OPACITY
from scenes.motions.softmax import bench_between, mask_later_tokens, soften_rows

__all__ = ["MultiheadSoftmax"]

DIM = 0.3


class MultiheadSoftmax(StageScene):
    number = 18
    title = "Multi-head attention weights"
    summary = "scale by √d_k and softmax along the rows of every head: 9 weight maps, each row summing to 1"
    code = "multihead_attention_weights = F.softmax(multihead_omegas / d_k**0.5, dim=-1)"
    paper_code = "multihead_attention_weights = F.softmax(multihead_omegas / (d // h)**0.5, dim=-1)"
    mask_code = ("multihead_attention_weights = F.softmax(\n"
                 "    (multihead_omegas / d_k**0.5).masked_fill(mask, float('-inf')), dim=-1)")
    view = (0.5, 0.3)

    def storyboard(self):
        omegas = self.trace["s17_multihead_omegas"]
        heads, tokens = omegas.shape[:2]
        head_k = self.cfg.head_k
        block = self.block("s17_multihead_omegas", "multihead_omegas", direction=DOWN)
        self.layout.fit([block], margins=Margins(bottom=block.label.height + 0.3))
        self.step("scores")
        self.say(f"the scores of all {heads} heads, from stage 17: one ω′ per head" if heads > 1
                 else "the one head's scores, from stage 17")
        self.play(appear(block), appear(self.layout.place(block)))
        shown = focus_heads(self, self.layout, self.viewpoint, block, "multihead_omegas", self.cfg.sentence,
                            roles=role_lines(self.trace.roles()))
        maps = [shown.focus, *shown.others]

        self.step("scale")
        scaled = self.trace["s18_multihead_scaled_omegas"]
        name = "multihead_omegas{} / √" + str(head_k)
        # on the scores' colors, every cube sliding toward the middle color (0), and kept there until the softmax:
        # the division seen at every still after it (recolored on their own range at once, "the map simply
        # appears already divided": the 38th reader; recolored after a moment, two stills showed the same
        # picture before and after ÷√17: 18_0050, 18_0150, the 62nd and 63rd readers)
        kept = shown.focus.value_range
        before, after = tick_values(kept), tick_values((float(scaled.min()), float(scaled.max())))
        what = f" (d/h = {head_k})" if self.paper(self.cfg) else ""
        self.say(f"÷ √{head_k}{what} in every head (√{head_k} ≈ {head_k ** 0.5:.3g}): every score shrinks toward 0, "
                 f"{before[0]} … {before[1]} becomes {after[0]} … {after[1]}")
        self.show_all(maps, shown, scaled, name, run_time=1.6, value_range=kept, scale_of="multihead_omegas")
        self.wait(1.4)
        self.say(f"still on the scores' colors ({before[0]} … {before[1]}): every cube nearer the middle color, 0's; "
                 f"every row's order kept")
        self.wait(1.4)
        values = scaled
        if self.cfg.mask == "causal":
            self.step("mask")
            self.say(f"causal mask in every head: later tokens' scores become {MASKED_SIGN}")
            mark = mask_later_tokens(self, self.layout, maps)
            values = self.trace["s18_multihead_masked_scaled_omegas"]
            self.show_all(maps, shown, values, "multihead_omegas{} / √" + str(head_k), run_time=0.4,
                          value_range=kept, scale_of="multihead_omegas")
            self.play(vanish(mark), run_time=0.4)

        self.step("softmax, head 0")
        weights = self.trace["s18_multihead_attention_weights"]
        # said as head 0 moves to the bench (said before, a still showed "one row first" over the unmoved heads,
        # no row in sight: 18_0145, the 73rd reader)
        home, bench, head_note = self.soften_head0(shown, values[0], weights[0], f" / √{head_k}", told=self.saying(
            "one row first: head 0's row 0, softmax as in stage 11" if heads > 1
            else "softmax along each row, as in stage 11"))
        if heads < 2:
            self.say("one head: its weights")
        self.others_to_weights(shown, weights, home, bench, head_note, told=self.saying(
            f"then the other rows of head 0 and all rows of heads 1 to {heads - 1}, row after row, every head "
            f"together: each row exp, then ÷ its sum") if heads > 1 else ())
        if heads > 1:  # every other row of every head formed together (head after head, "they just appear")
            fill_heads(self, self.layout, shown, run_time=4.5)

        self.step("every head")
        sums = weights.sum(axis=-1)
        low, high = (f"{v:.4f}" for v in (sums.min(), sums.max()))
        self.wait(0.6)
        self.say(f"every row of every head sums to 1: the {heads * tokens} row sums are "
                 + (low if low == high else f"{low} to {high}"))
        self.wait(1.4)
        self.step("roles")
        self.say(self.roles_said(self.trace.roles(), weights))
        self.wait(1.0)

    def soften_head0(self, shown, values, weights, scale_note: str, told=()):
        """Head 0's scores go through stage 11's bench, row by row, into its
        weights (the other heads wait off screen; ``told``: a caption
        joining head 0's move). Returns where head 0 stood, the bench, and
        what head 0 looks at (its label's note)."""
        focus, words = shown.focus, self.cfg.sentence
        head_note = focus.label.note  # what head 0 looks at, said under its name
        home = focus.copy()
        target = focus.copy()
        target.label = focus.label
        bench = bench_between(self.layout, target, weights, "multihead_omegas[0]",
                              "multihead_attention_weights[0]", words, scale_note=scale_note)
        away = [*shown.others, *shown.tags, *([shown.others_label] if shown.others_label is not None else [])]
        self.play(*[vanish(m) for m in away], *[vanish(w, rate_func=at_once) for w in shown.words],
                  focus.animate.become(target), self.layout.follow(focus, target), *told, run_time=1.0)
        bench.scores = focus
        weights_map = bench.weights
        self.play(appear(weights_map), appear(self.layout.place(weights_map)), *map(appear, bench.words_on),
                  run_time=0.6)
        # one row over the bench, its exponentials and their sum seen (the other rows went by it too, one after
        # another, and no still caught an exponential: 18_0160); the rest come with the other heads' rows
        soften_rows(self, self.layout, bench, values, weights, saying=self.saying, scale_note=scale_note,
                    rows=1 if shown.others else None)
        return home, bench, head_note

    def words_for(self, grid):
        grid.is_map = True
        return [self.layout.word_labels(grid, self.cfg.sentence), self.layout.column_words(grid, self.cfg.sentence)]

    def others_to_weights(self, shown, weights, home, bench, head_note, told=()):
        """Head 0's weights go back ``home`` (its scores and the bench go;
        ``head_note`` under its name again); the other heads come back as
        their weights' empty slots (:func:`fill_heads` forms them), each map
        named at every frame (``told``: a caption joining their coming)."""
        weights_map = bench.weights
        others = bool(shown.others)
        before = weights_map.label
        self.layout.name(weights_map, "multihead_attention_weights[0]", DOWN,
                         scale_of="all heads" if others else None, note=head_note)
        weights_map.label.row, weights_map.label.hang = None, 0  # it leaves the bench's row
        weights_map.label.within = shown.area if others else None  # clear of the small heads
        there = weights_map.copy()
        there.label = label = weights_map.label
        if others:
            there.scale(home.pitch / there.pitch).move_to(home.get_center())  # head 0's place, its own colors
        else:
            self.layout.fit([there], margins=Margins(left=self.layout.word_room(self.cfg.sentence), top=(
                self.layout.word_room(self.cfg.sentence, columns=True)), bottom=weights_map.label.height + 0.3))
        self.layout.place(there)  # the new label, where the weights are going
        value_range = (float(weights.min()), float(weights.max()))
        for h, piece in enumerate(shown.others, start=1):  # their weights still to form: empty slots
            piece.recolor(weights[h], value_range).set_cell_opacity(SLOT_OPACITY).empty()
        others_label = None
        if others:
            others_label = note_text("multihead_attention_weights[1:]", self.theme)
            others_label.move_to(shown.others_label).align_to(shown.others_label, LEFT)
            self.layout.inside(others_label)
            self.layout.fixed(others_label)
            for piece in shown.others:
                piece.label = others_label
        leaving = [bench.scores, *bench.words_on]
        # head 0's weights go home first (over no other head), then the other heads come
        # the scores go at once with their name (fading, unnamed, they were a map of nothing: 18_0368)
        self.play(*[vanish(m, rate_func=at_once) for m in leaving],
                  vanish(bench.scores.label, rate_func=at_once), weights_map.animate.become(there),
                  *swap(before, label), run_time=0.8)
        shown.focus, shown.others_label = weights_map, others_label
        shown.words = self.words_for(weights_map)
        self.play(*map(appear, shown.words), *map(appear, shown.others), *([appear(shown.tags)] if others else []),
                  *([appear(others_label)] if others_label is not None else []), *told, run_time=0.6)

    def show_all(self, maps, shown, values, name: str, run_time: float, value_range=None, index=True,
                 scale_of: str = "all heads"):
        """Every head's map recolored to ``values`` (one scale for all heads,
        or ``value_range``: that of the tensor ``scale_of`` names),
        renamed in the same play: head 0 ``name`` with ``[0]`` where ``{}``
        stands (or ", head 0" without ``index``), the others with ``[1:]``:
        a block never shows two meanings."""
        finite = values[np.isfinite(values)]
        value_range = value_range or (float(finite.min()), float(finite.max()))
        focus = shown.focus
        old = focus.label
        focus.value_range = value_range
        self.layout.name(focus, name.format("[0]") if index else f"{name}, head 0", DOWN, scale_of=scale_of,
                         values=np.where(np.isfinite(values[0]), values[0], 0.0))
        self.layout.place(focus)
        swaps = swap(old, focus.label)
        if shown.others_label is not None:
            text = note_text(name.format("[1:]") if index else f"{name}, heads 1 to {len(maps) - 1}", self.theme)
            text.move_to(shown.others_label).align_to(shown.others_label, LEFT)
            self.layout.fixed(text)
            for piece in shown.others:
                piece.label = text
            swaps += swap(shown.others_label, text)
            shown.others_label = text
        anims = [m.animate.recolor(np.where(np.isfinite(values[h]), values[h], 0.0), value_range)
                 for h, m in enumerate(maps)]
        self.play(*anims, *swaps, run_time=run_time)

    def roles_said(self, roles, weights) -> str:
        """What the heads look at, said from the weights (see
        :mod:`tensors.roles`); with no head of a clear role, how alike the
        heads' weights are (as stage 17 says of their scores: "no clear
        role" beside "all alike" read as a contradiction) and which tokens
        get the most weight."""
        named = [r for r in roles if r.role]
        if not named:
            heads = len(weights)
            if heads < 2:
                return f"one head, no clear role: the projections are {self.weights_words(self.cfg)}"
            mine, scores = heads_alike(weights), heads_alike(self.trace["s17_multihead_omegas"])
            how = ("less alike than" if mine < scores - 0.05 else "more alike than" if mine > scores + 0.05
                   else "as alike as")
            top = [self.cfg.sentence[t] for t in np.argsort(-weights.mean(axis=(0, 1)), kind="stable")[:2]]
            return (f"the heads' weights are {how} their scores (two heads correlate {mine:.2f} on average, "
                    f"against {scores:.2f}); most weight on \"{top[0]}\" and \"{top[1]}\"")
        parts = ", ".join(f"head {r.head} {r.name}" for r in named[:4])
        return f"what the heads look at: {parts}" + (" …" if len(named) > 4 else "")
