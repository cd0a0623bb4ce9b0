"""Stage 20: tokens first, then each token's heads end to end: one 8×162 matrix.

``swapaxes(0, 1)`` is seen as a re-cut of the block: the heads × tokens ×
features block comes apart where it stands into a stack of token slabs,
each with its word, and the stack goes to the stage's right; each token's
slab (its row from every head, the heads in depth) stands up to face the
viewer, a heads × d_v block with head 0 on top, landing left of the stack;
the token blocks then spread over the stage. ``reshape(T, h·d_v)`` then
lays each token's head rows end to end into one row of the flattened
matrix: token 0 head by head, the others a token at a time, each landing
under the word it is.
"""

import numpy as np
from manim import DOWN, PI, UP, LaggedStart, Line, Rectangle, VGroup

from scenes.base import StageScene
from scenes.components.fades import InPlace, appear, at_end, at_once, done_at, halfway, swap, vanish
from scenes.components.projection import FRONT
from scenes.layout import LABEL_BUFF, TAG_ROOM, Margins, StageArea, Together, head_columns
from scenes.components.guides import GUIDE_ROOM, axis_guides
from scenes.components.labels import TEXT_SIZE, note_text
from scenes.motions.heads import head_tags
from scenes.motions.matmul import SLOT_OPACITY
from scenes.motions.turns import turn

__all__ = ["Concatenation"]

READABLE_PITCH = 0.2  # cubes closer than this (12 px at 480p) get a closer look
TAG_GAP = 0.1  # at least between two tags side by side
LOOK_CELLS = 24  # the closer look shows whole heads, at least this many columns
TOKEN_GAP = (0.45, 0.5)  # between two token blocks on screen: across, and down (room for their words)
JOINED_SHARE = (0.3, 0.55)  # of the stage area's height, bottom: the flattened matrix (least, most)
PARKED = 0.74  # of the stage area's width, left: where the token blocks land as the block comes apart
SLAB_GAP = 1.5  # cubes between two token slabs of the block come apart
WORDS_SHARE = 0.5  # the token blocks keep their words over them unless that halves their size


class Concatenation(StageScene):
    code_steps = {"tokens first": (0,)}  # the reshape lit with its caption (:meth:`end_to_end`)
    number = 20
    title = "Concatenate the heads"
    summary = ("swapaxes(0,1): the block re-cut by token, 8 blocks of 9×18; reshape: each token's heads end "
               "to end, one 8×162 matrix")
    code = ("multihead_context_vectors = multihead_context_vectors.swapaxes(0, 1)\n"
            "multihead_flattened = multihead_context_vectors.reshape({tokens}, h*d_v)")
    view = (0.45, 0.3)

    def storyboard(self):
        context = self.trace["s19_multihead_context_vectors"]
        flattened = self.trace["s20_multihead_flattened"]
        heads, tokens, d_v = context.shape
        words = self.cfg.sentence
        block = self.block("s19_multihead_context_vectors", "multihead_context_vectors", direction=DOWN)
        # the three axes named on the block, what swapaxes(0, 1) swaps (a block with none: "swap axes 0 and 1"
        # could not be seen, 20_0040, the 42nd reader); the depth's word right of the block's far corner
        depth = f"axis 0, heads: {heads}" if heads > 1 else None  # numbered as swapaxes(0, 1) numbers them
        beyond = note_text(depth, self.theme, font_size=TEXT_SIZE).width + 0.3 if depth else 0.0
        # the tokens down the block's right edge (the camera, left of the block, sees its left side: the word
        # down the left edge stood on those cubes)
        self.layout.fit([block], margins=Margins(bottom=block.label.height + 0.3, top=GUIDE_ROOM,
                                                 right=max(beyond, GUIDE_ROOM)))
        dims = [depth, f"axis 1, tokens: {tokens}", f"axis 2, d_v = {d_v}"]
        left, bottom, right, top = self.layout.screen_box([block])
        for axis, edge in ((1, top - bottom), (2, right - left)):
            if note_text(dims[axis], self.theme, font_size=TEXT_SIZE).width > edge + 0.2:
                dims[axis] = None  # longer than the edge it names, it ran into the block's name or the depth's
                # word (2 tokens; d_v = 2): said in the caption, not drawn
        arrows, named = axis_guides(block, ("top", "right"), self.theme, size=TEXT_SIZE, dims=tuple(dims))
        self.layout.upright(*named)
        axes = VGroup(arrows, named)
        self.step("heads")
        self.say(f"{heads} heads in depth, each an {tokens}×{d_v} matrix: token i is row i of every head"
                 if heads > 1 else f"one head, one {tokens}×{d_v} matrix: token i is row i")
        self.play(appear(block), appear(self.layout.place(block)), appear(axes, rate_func=at_once))
        self.wait(0.6)

        self.step("tokens first")
        token_blocks, together, tags = self.tokens_first(block, context, words, axes)
        self.wait(1.2)

        self.step("one row per token")
        joined, label, look_area, marks = self.end_to_end(token_blocks, together, tags, flattened, heads, d_v, words)
        if heads > 1 and self.layout.settled(joined, self.settled_margins(heads)).pitch < READABLE_PITCH:
            self.closer_look(joined, label, heads, d_v, look_area)
        else:  # cubes large enough to read once it fills the stage area
            self.settle(joined, marks, heads, d_v)

    def tokens_first(self, block, context, words, axes):
        """``swapaxes(0, 1)``: the block comes apart where it stands into a
        stack of token slabs, gaps between them, each slab's word beside it
        (its axis guides, ``axes``, gone with the whole block), and the
        stack goes to the stage's right (:meth:`take_apart`); each slab
        (heads in depth) stands up to face the viewer as a heads × d_v
        block, head 0 on top, landing left of the stack; then the blocks
        spread over the stage, each under its word. Returns the token
        blocks, their shared label and their words."""
        heads, tokens, d_v = context.shape
        swapped = context.swapaxes(0, 1)
        # one line for the name and the shape: the token blocks keep the height a second line would take
        label = self.layout.sized_label("multihead_context_vectors.swapaxes(0, 1)", (tokens, heads, d_v), DOWN,
                                        stacked=False, value_range=block.value_range)
        label.side = DOWN
        targets = [block.like(swapped[t], block.value_range, dims=(None, "heads", block.dims[2]))
                   for t in range(tokens)]
        # the token blocks land left of the stack the block comes apart into (landing where the block stood,
        # they fell on its remaining slabs: a jumble, 20_0080, the 64th reader); the next step lays them out again
        area = self.layout.area()
        worded = self.lay_out_tokens(targets, words, area.part(0.0, PARKED), bottom=label.height + 0.35)
        self.layout.beside(targets, label, DOWN, buff=0.25, view=FRONT)
        self.layout.inside(label, view=FRONT)  # wider than the blocks' part of the stage
        self.layout.upright(label)
        together = Together(label)
        for target in targets:
            target.part_of = together
        self.say(f"swapaxes(0, 1): axes 0 (heads) and 1 (tokens) trade places: token i's slab holds its row "
                 + (f"from all {heads} heads" if heads > 1 else "from the one head"))
        slabs = block.split(axis=1)  # token t's slab: row t of every head, the heads in depth
        for slab in slabs:
            slab.part_of = together
        self.remove(block)
        self.add(*slabs)
        self.take_apart(block, slabs, label, axes, words[:tokens], area)
        x_axis = block.axis_vectors()[0]
        turns = []
        for slab, target in zip(slabs, targets):
            # it stands up about its back edge (the last head's row), head 0 rising on top, over the block: tipped
            # about its front edge it hung down across the block's front face, read as a slab cut through the
            # block, a torn lid (20_0042, the 62nd to 65th readers)
            corner = slab.cell_center(heads - 1, 0)
            landed = slab.copy().rotate(-PI / 2, x_axis, about_point=corner).scale(target.pitch / slab.pitch,
                                                                                  about_point=corner)
            turns.append(turn(slab, -PI / 2, x_axis, about_point=corner,
                              shift=target.cell_center(0, 0) - landed.cell_center(0, 0),
                              scale=target.pitch / slab.pitch))
        # one slab after another, each in place before the next leaves the stack (tipping together, they passed
        # through each other: a still of them read as a jumble of cubes, 20_0040, the 45th reader)
        # each block's word over it as it lands (words only once the blocks were spread, a still caught eight
        # blocks unnamed for the 7 s of the turns: 20_0136, the 72nd and 73rd readers)
        parked = head_tags(self.layout, targets, texts=list(words)) if worded else VGroup()
        self.play(self.viewpoint.turn(*FRONT), LaggedStart(*turns, lag_ratio=1.0),
                  *[appear(tag, rate_func=done_at((t + 1) / tokens)) for t, tag in enumerate(parked)],
                  run_time=min(4.0, 0.4 * tokens + 0.8))
        self.remove(*slabs)
        self.add(*targets)
        # the stack gone, the token blocks spread over the whole stage, their name with them (jumping half-way)
        spread = [target.copy() for target in targets]
        self.lay_out_tokens(spread, words, area, bottom=label.height + 0.35)
        moved = label.copy()
        self.layout.beside(spread, moved, DOWN, buff=0.25, view=FRONT)
        self.layout.inside(moved, view=FRONT)
        self.layout.upright(moved)
        # each block's word with it, jumping half-way as its name does (shown only where the blocks landed, a
        # still caught the eight blocks unnamed: 20_0141, the 70th and 71st readers)
        tags = head_tags(self.layout, spread, texts=list(words))
        self.play(*[target.animate.become(there) for target, there in zip(targets, spread)], *swap(label, moved),
                  *(self.riding_words(parked, tags, targets, spread) if len(parked)
                    else [appear(tags, rate_func=at_end)]), *self.saying(
                      f"{tokens} blocks of {heads}×{d_v}, one per token: head 0's row on top, head {heads - 1}'s "
                      f"at the bottom" if heads > 1 else f"{tokens} blocks of 1×{d_v}, one per token"),
                  run_time=0.6)
        together.label = moved
        return targets, together, tags

    def riding_words(self, parked, tags, blocks, spread) -> list:
        """Each block's word going with its block from where it was
        (``parked``, over ``blocks``) to where it lands (``tags``, over
        ``spread``): at every frame over the block, where it will stand
        relative to it (swapped half-way, the words stood at the landing
        places while the blocks were still on their way: 20_0136, the 76th
        reader). The animations, ``parked`` gone and ``tags`` shown."""
        def top(grid):
            left, _, right, high = self.layout.screen_box([grid], FRONT)
            return np.array([(left + right) / 2, high, 0.0])

        offsets = [tag.get_center() - top(there) for tag, there in zip(tags, spread)]

        def ride(group, alpha):
            for tag, block, offset in zip(group, blocks, offsets):
                tag.move_to(top(block) + offset)

        return [vanish(parked, rate_func=at_once), appear(tags, rate_func=at_once), InPlace(tags, ride)]

    def take_apart(self, block, slabs, label, axes, words, area: StageArea) -> None:
        """``block`` comes apart into its token ``slabs`` where it stands,
        large, gaps between them, each slab's word beside it, ``label`` (the
        swapped tensor's) taking the block's place and ``axes`` going: the
        re-cut seen (a top slab tipping out of the whole block read as a lid
        torn off: 20_0042, the 62nd to 65th readers; taken apart straight
        into a corner, the stack stood small beside an empty frame and the
        swap was never seen: 20_0044, the 68th); then the stack goes to the
        stage's right, where the token blocks will not land."""
        down = block.axis_vectors()[1]
        apart = [slab.copy().shift(down * SLAB_GAP * block.pitch * t) for t, slab in enumerate(slabs)]
        room = max(note_text(w, self.theme).width for w in words) + 0.3
        self.layout.fit(apart, margins=Margins(bottom=label.height + 0.35, left=room, right=room))
        named = self.slab_words(apart, words)
        self.play(*[slab.animate.become(there) for slab, there in zip(slabs, apart)], *swap(block.label, label),
                  vanish(axes, rate_func=at_once), appear(named, rate_func=halfway), run_time=1.0)
        self.wait(1.0)
        stack = [slab.copy() for slab in apart]
        self.layout.fit(stack, area=area.part(PARKED + 0.03, 1.0), margins=Margins(bottom=label.height + 0.35,
                                                                                    right=0.2))
        self.play(*[slab.animate.become(there) for slab, there in zip(slabs, stack)],
                  vanish(named, rate_func=at_once), run_time=0.6)

    def slab_words(self, slabs, words) -> VGroup:
        """Each token's word left of its slab in the stack, where the slabs
        stand far enough apart for a word each; else every second one, or
        fewer (never text on text). Pinned, not shown."""
        texts = [note_text(w, self.theme) for w in words]
        boxes = [self.layout.screen_box([slab]) for slab in slabs]
        levels = [(bottom + top) / 2 for _, bottom, _, top in boxes]
        apart = min((abs(a - b) for a, b in zip(levels, levels[1:])), default=float("inf"))
        step = max(1, int(np.ceil((max(t.height for t in texts) + 0.08) / max(apart, 1e-6))))
        shown = VGroup()
        for t in range(0, len(slabs), step):
            left, _, _, _ = boxes[t]
            texts[t].move_to([left - 0.15 - texts[t].width / 2, levels[t], 0.0])
            self.layout.fixed(texts[t])
            shown.add(texts[t])
        return shown

    def lay_out_tokens(self, blocks, words, area: StageArea, bottom: float = 0.2, top: float = 0.0) -> bool:
        """The token blocks in rows fitted to ``area`` less ``bottom`` and
        ``top`` (their label's room), each with room for its word over it;
        where the words would leave the blocks less than half the size they
        have without them (many long words in a narrow band), without the
        words' room. Returns whether the words have their room."""
        def lay_out(grids, words_over: bool) -> float:
            least = max(note_text(w, self.theme).width for w in words) + TAG_GAP if words_over else 0.0
            _, rows, cols = grids[0].grid_shape
            inner = area.inset(Margins(bottom=bottom, top=top))
            columns = head_columns(len(grids), cols, rows, inner, least=least, gap=TOKEN_GAP,
                                   top=TAG_ROOM if words_over else 0.0)
            self.layout.grid_of_blocks(grids, columns, gap=TOKEN_GAP, area=area, least=least,
                                       margins=Margins(top=(TAG_ROOM if words_over else 0.0) + top, bottom=bottom))
            return grids[0].pitch

        bare = lay_out([b.copy() for b in blocks], False)
        worded = lay_out(blocks, True)
        if worded >= WORDS_SHARE * bare:
            return True
        lay_out(blocks, False)
        return False

    def end_to_end(self, token_blocks, together, tags, flattened, heads: int, d_v: int, words):
        """``reshape(T, h·d_v)``: every token's head rows laid end to end into
        row t of the flattened matrix (empty slots at first, below the token
        blocks): token 0's heads one after another, then a token at a time.
        Returns the matrix, its label and the part of the stage area above it."""
        tokens, label = len(token_blocks), together.label
        area = self.layout.area()
        joined = token_blocks[0].like(flattened, token_blocks[0].value_range,
                                      dims=(None,) + self.trace.axes("s20_multihead_flattened"))
        self.layout.name(joined, "multihead_flattened", DOWN, stacked=False)
        room = self.layout.word_room(words)
        # the head tags and the name under the matrix, the token blocks' name over them: nothing stands
        # between the blocks and the rows they become
        under = TAG_ROOM + joined.label.height + 0.3
        joined_margins = Margins(left=room, top=0.1, bottom=under)
        self.layout.fit([joined], view=FRONT, margins=joined_margins)
        _, low, _, high = self.layout.screen_box([joined], FRONT)
        share = float(np.clip((high - low + under + 0.35) / area.height, *JOINED_SHARE))
        below, above = area.band(1.0 - share, 1.0), area.band(0.0, 1.0 - share)
        self.layout.fit([joined], view=FRONT, area=below, margins=joined_margins)
        there = [b.copy() for b in token_blocks]
        worded = self.lay_out_tokens(there, words, above, top=label.height + 0.2)
        moved = label.copy()
        self.layout.beside(there, moved, UP, buff=(TAG_ROOM if worded else 0.0) + 0.15, view=FRONT)
        self.layout.upright(moved)
        together.label = moved
        # without room for every word, the words go (the label names the blocks, the caption the first word)
        moved_tags = head_tags(self.layout, there, texts=list(words)) if worded else VGroup()
        # where each token's head rows land: row t, head h's columns (taken before the slots are emptied)
        goals = [[joined.subgrid((0, t, slice(h * d_v, (h + 1) * d_v))) for h in range(heads)]
                 for t in range(tokens)]
        head_parts = [joined.subgrid((0, slice(None), slice(h * d_v, (h + 1) * d_v))) for h in range(heads)]
        reshaping = (f"reshape({tokens}, {heads * d_v}): each token's {heads} head rows end to end, one row of "
                     f"{heads * d_v}" if heads > 1 else f"reshape({tokens}, {d_v}): one row per token")
        # the texts jump half-way, from where the blocks were to where they go: none slides across a block,
        # and the blocks are named all the way
        self.play(*[b.animate.become(t) for b, t in zip(token_blocks, there)], *swap(label, moved),
                  *swap(tags, moved_tags), run_time=1.0)
        label, tags = moved, moved_tags
        joined.set_cell_opacity(SLOT_OPACITY).empty()  # empty slots: grey, never the pattern to come
        head_marks = head_tags(self.layout, head_parts, direction=DOWN) if heads > 1 else VGroup()
        if heads > 1 and max(t.width for t in head_marks) > d_v * joined.pitch - TAG_GAP:
            head_marks = VGroup()  # too narrow for a tag under every head: the seams and the close-up tell them
        joined_label = self.layout.place(joined, buff=LABEL_BUFF + (TAG_ROOM if len(head_marks) else 0.0))
        seams = self.seams(joined, heads, d_v, reach=joined.pitch / 2)
        # said as the rows it fills appear (said before the blocks moved up, it spoke of a reshape over the
        # swapaxes' blocks: 20_0112, the 34th reader), its statement lit with it (lit as the step began, the
        # reshape stood lit under the swapaxes' caption: 20_0126, the 63rd reader)
        self.code_at(1)
        self.play(appear(joined), appear(joined_label), appear(seams), appear(head_marks), *self.saying(reshaping),
                  run_time=0.5)
        for t, block in enumerate(token_blocks):
            rows = block.split(axis=1)
            for row in rows:
                row.part_of = together
            self.remove(block)
            self.add(*rows)
            if t == 0:
                self.say(f"\"{words[0]}\": head 0's {d_v} numbers, then head 1's beside them, …" if heads > 1
                         else f"\"{words[0]}\": its {d_v} numbers")
                run, lag = 0.5 * heads + 0.6, 0.6
            else:
                run, lag = max(0.45, 1.0 * 0.85 ** t), 0.05
            if t == 1:
                self.say(f"every token the same: its row from each head, in head order, one row of {heads * d_v}")
            last = [vanish(label, rate_func=at_once)] if t == tokens - 1 else []  # no name over no block
            # token 0's word stays over its block as its rows leave it (gone at once, a still caught the block
            # half emptied, unnamed, its row under the next block: 20_0227, the 73rd reader)
            word = [vanish(tags[t], rate_func=at_once if t else at_end)] if len(tags) else []
            line = self.line_above(joined, token_blocks[t:], goals[t]) if t else None
            if line is not None:
                # laid end to end first in the gap above the matrix, then the one line down into its row (each
                # head row flying straight to its row crossed the rows already laid: a staircase of strips
                # over the matrix, 20_0274 for the 40th reader); its word beside it as it lies there
                shown = self.word_beside(line, words[t])
                self.play(LaggedStart(*[r.animate.become(g) for r, g in zip(rows, line)], lag_ratio=lag), *word,
                          *[appear(m, rate_func=at_once) for m in shown], run_time=run)
                word = [vanish(m, rate_func=at_once) for m in shown]
                run = max(0.3, 0.4 * run)
            self.play(LaggedStart(*[r.animate.become(g) for r, g in zip(rows, goals[t])], lag_ratio=lag),
                      *word, *last, run_time=run)
            joined.set_cell_opacity(1.0, (0, t)).fill((0, t))
            self.remove(*rows)
        self.say(f"multihead_flattened: {tokens}×{heads * d_v}, row i is token i, the heads' lines between")
        return joined, joined_label, above, VGroup(seams, head_marks)

    def line_above(self, joined, blocks, goals):
        """Where token ``t``'s head rows (``goals``: their places in row ``t``
        of ``joined``) lie end to end first: the same line, shifted up into
        the gap between ``joined`` and the token blocks still above it
        (``blocks``), clear of both; None where that gap is narrower than
        three of ``joined``'s rows."""
        _, _, _, top = self.layout.screen_box([joined], FRONT)
        bottom = min(self.layout.screen_box([b], FRONT)[1] for b in blocks)
        if bottom - top < 3 * joined.pitch:
            return None
        row = self.layout.screen_box(goals, FRONT)
        shift = (top + bottom) / 2 - (row[1] + row[3]) / 2
        return [g.copy().shift(UP * shift) for g in goals]

    def word_beside(self, line, word: str) -> list:
        """Token ``word`` left of ``line`` (a row on its way into ``joined``),
        where the stage area leaves room for it there; else none."""
        text = note_text(word, self.theme)
        left, bottom, _, top = self.layout.screen_box(line, FRONT)
        if left - self.layout.area().left < text.width + 0.15:
            return []
        text.move_to([left - 0.15 - text.width / 2, (bottom + top) / 2, 0.0])
        self.layout.fixed(text)
        return [text]

    def closer_look(self, joined, label, heads: int, d_v: int, area: StageArea) -> None:
        """Row 0 of the flattened matrix, its first heads drawn large in
        ``area`` above it (where the token blocks were): where head 0's
        numbers end and head 1's begin, readable at any size."""
        shown = min(heads, max(2, -(-LOOK_CELLS // d_v)))
        word = self.cfg.sentence[0]
        self.step("closer look")
        self.say(f"row 0 (\"{word}\") up close: head 0's {d_v} numbers, then head 1's" + (", …" if shown > 2 else ""))
        part = joined.subgrid((0, 0, slice(0, shown * d_v)))
        left, bottom, right, top = self.layout.screen_box([part])
        pad = joined.pitch * 0.6
        frame = Rectangle(width=right - left + 2 * pad, height=top - bottom + 2 * pad, stroke_width=2,
                          color=self.theme.accent).move_to([(left + right) / 2, (bottom + top) / 2, 0.0])
        self.layout.fixed(frame)
        zoom = part.copy()
        room = self.layout.word_room([word])
        self.layout.fit([zoom], area=area, view=FRONT,
                        margins=Margins(left=room, right=room, bottom=TAG_ROOM + 0.1))
        moving = part.copy()
        moving.part_of = joined  # a closer look at the framed part of the matrix
        self.add(moving)
        self.play(appear(frame), run_time=0.6)
        self.play(moving.animate.become(zoom), run_time=1.2)
        seams = self.seams(zoom, shown, d_v, reach=0.15, stroke_width=3)
        pieces = [zoom.subgrid((0, 0, slice(h * d_v, (h + 1) * d_v))) for h in range(shown)]
        tags = VGroup(*[t for t in head_tags(self.layout, pieces, direction=DOWN, buff=0.12)
                        if t.width < d_v * zoom.pitch])
        words = self.layout.word_labels(moving, [word])
        self.play(appear(seams), appear(tags), appear(words), run_time=0.6)
        self.wait(1.0)

    def settle(self, joined, marks, heads: int, d_v: int) -> None:
        """The closing shot: the flattened matrix fills the stage area, its
        heads' lines and tags drawn again where it stands."""
        self.close_on(joined, marks, margins=self.settled_margins(heads))
        if heads < 2:
            return
        seams = self.seams(joined, heads, d_v, reach=joined.pitch / 2)
        tags = head_tags(self.layout, [joined.subgrid((0, slice(None), slice(h * d_v, (h + 1) * d_v)))
                                       for h in range(heads)])
        if max(t.width for t in tags) > d_v * joined.pitch - TAG_GAP:
            tags = VGroup()
        self.play(appear(seams), appear(tags), run_time=0.4)

    @staticmethod
    def settled_margins(heads: int) -> Margins:
        """Room above the flattened matrix, filling the stage area: its heads' tags."""
        return Margins(top=TAG_ROOM if heads > 1 else 0.0)

    def seams(self, grid, heads: int, d_v: int, reach: float, stroke_width: float = 2) -> VGroup:
        """Lines where one head's columns end and the next head's begin in
        ``grid`` (front view), ``reach`` beyond its top and bottom. Not shown."""
        lines = VGroup()
        for h in range(1, heads):
            x = (grid.cell_center(0, h * d_v - 1)[0] + grid.cell_center(0, h * d_v)[0]) / 2
            lines.add(Line([x, grid.get_top()[1] + reach, 0.0], [x, grid.get_bottom()[1] - reach, 0.0],
                           stroke_width=stroke_width, color=self.theme.accent))
        return lines

