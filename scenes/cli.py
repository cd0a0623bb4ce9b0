"""Attention Cubes command line: list the stages, export the tensors, render.

Parse, validate, call, report: nothing here computes tensors or draws. Each
render runs in its own process with its own Manim ``tempconfig``; importing
this module changes no configuration.

The installed command ``attention-cubes`` runs :func:`main`; in a checkout,
``python render.py`` does the same (``render.py`` only imports this module).
Errors name the command as it was called (``render.py: error: ...`` or
``attention-cubes: error: ...``).

Examples
--------
    attention-cubes list
    attention-cubes tensors --out attention.npz
    attention-cubes render 3 7-9 20 --quality low
"""

from __future__ import annotations

import functools
import importlib
import json
import os
import sys
import threading
from pathlib import Path

import click

from scenes import interrupts
from scenes.catalogue import stage_catalogue, stage_count
from scenes.jobs import FORMATS, QUALITY_PRESETS
from tensors.config import INITS, POSITIONS, TRAINED

__all__ = ["cli", "main", "parse_scene_spec"]

__version__ = "0.2.0"

QUALITIES = tuple(QUALITY_PRESETS)


def parse_scene_spec(specs: tuple[str, ...], total: int | None = None) -> list[int]:
    """Turn ``("3", "7-9", "20")`` into ``[3, 7, 8, 9, 20]`` (sorted, unique);
    ``total``: the number of scenes (default: every stage).

    >>> parse_scene_spec(("3", "7-9", "20"))
    [3, 7, 8, 9, 20]
    """
    total = total or stage_count()
    chosen: set[int] = set()
    for spec in specs:
        for part in filter(None, spec.replace(",", " ").split()):
            low, sep, high = part.partition("-")
            try:
                first = int(low)
                last = int(high) if sep else first
            except ValueError:
                raise click.BadParameter(
                    f"'{part}' is not a scene number or range like 7-9", param_hint="SCENES"
                ) from None
            if first > last:
                raise click.BadParameter(
                    f"range '{part}' runs backwards; write {last}-{first}", param_hint="SCENES"
                )
            if first < 1 or last > total:
                raise click.BadParameter(
                    f"'{part}': scenes are numbered 1 to {total}", param_hint="SCENES"
                )
            chosen.update(range(first, last + 1))
    return sorted(chosen)


def config_options(func):
    """The options that build an AttentionConfig, shared by every command.

    The command receives the validated configuration as ``config``.
    """

    @functools.wraps(func)
    def with_config(*args, sentence, d_model, heads, seed, variant, mask, weights, positions, init, **kwargs):
        config = build_config(sentence, d_model, heads, seed, variant, mask, weights, positions, init)
        return func(*args, config=config, **kwargs)

    options = [
        click.option("--sentence", default=None, metavar="TEXT",
                     help="Your own sentence, 2-16 words (default: the blog's)."),
        click.option("--d-model", "d_model", type=int, default=None,
                     help="Embedding size d (default 16; d_k = d+1, d_v = d+2)."),
        click.option("--heads", type=int, default=None,
                     help="Attention heads (default 9; 4 with --variant paper)."),
        click.option("--seed", type=int, default=None, help="torch.manual_seed (default 123)."),
        click.option("--variant", type=click.Choice(["blog", "paper"]), default="blog", show_default=True,
                     help="Multi-head attention (stages 13 on): the blog's (full-size heads, "
                          "Linear(h*d_v, d_v)) or the paper's (d split across heads, W_O; "
                          "as torch.nn.MultiheadAttention)."),
        click.option("--mask", type=click.Choice(["none", "causal"]), default="none", show_default=True,
                     help="causal: a decoder's (GPT's) attention, token i sees only tokens j <= i; "
                          "every softmax first sets later scores to -inf."),
        click.option("--weights", default=None, metavar="trained|FILE.npz",
                     help="trained: a small model of this shape trained (a few seconds, once; cached) "
                          "on telling, at every word, the words at other places, so its heads look at "
                          "different things. FILE.npz: your own numbers, any of the export's leaf keys "
                          "(s02_embedding_table or s02_embedded_sentence, s06_U_*, s13_multihead_U_*, "
                          "s21_linear_weight, s21_linear_bias; with positions s02_token_embeddings, "
                          "s02_positions) in this configuration's shapes."),
        click.option("--positions", type=click.Choice(POSITIONS), default=None,
                     help="Where each word stands, added to its embedding: none (the blog's), learned "
                          "(a T x d table) or sinusoidal (Vaswani et al.). Default: none; learned with "
                          "--weights trained or a weights file holding s02_positions."),
        click.option("--init", type=click.Choice(INITS), default=None,
                     help="The weights not set otherwise: torch-rand (the blog's, default; nearly one-hot "
                          "softmaxes) or xavier (Xavier-uniform: graded attention without training)."),
    ]
    for option in reversed(options):
        with_config = option(with_config)
    return with_config


def traced(config):
    """The trace of ``config``, Ctrl-C held back while it loads torch (the
    first time; later processes read it from the on-disk cache). Training
    (``--weights trained``, a few seconds, once) stays interruptible."""
    from tensors import compute_trace
    from tensors.trace import is_cached

    if not config.trained or is_cached(config):
        with interrupts.deferred():
            return compute_trace(config)
    with interrupts.deferred():
        import torch  # noqa: F401  (only the import is held back)
    click.echo("training the attention for --weights trained (once; kept in the trace cache) ...", err=True)
    return compute_trace(config)


def build_config(sentence, d_model, heads, seed, variant="blog", mask="none", weights=None,
                 positions=None, init=None):
    """An AttentionConfig from CLI values; None keeps the default.

    ``weights``: ``"trained"`` or a path. ``positions`` None: learned with
    trained weights or a file holding ``s02_positions``, else none.
    """
    from tensors import AttentionConfig, ConfigError, load_weights

    kwargs = {k: v for k, v in (("d", d_model), ("heads", heads), ("seed", seed)) if v is not None}
    kwargs.update(variant=variant, mask=mask)
    try:
        if weights is not None:
            kwargs["weights"] = TRAINED if weights == TRAINED else load_weights(Path(weights))
        kwargs.update(positions=positions, init=init or INITS[0])
        if sentence is not None:
            return AttentionConfig.from_text(sentence, **kwargs)
        return AttentionConfig(**kwargs)
    except ConfigError as error:
        raise click.UsageError(str(error)) from None


class OneLineErrorGroup(click.Group):
    """A click group whose errors are one line on stderr, never a traceback.

    Exit codes: 2 for bad usage (unknown scene, bad option value, impossible
    configuration), 1 for a failure while running, 130 for Ctrl-C.
    """

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        prog_name = prog_name or self.name
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.UsageError as error:
            click.echo(f"{prog_name}: error: {error.format_message()}", err=True)
            code = 2
        except click.ClickException as error:
            click.echo(f"{prog_name}: error: {error.format_message()}", err=True)
            code = 1
        except click.exceptions.Abort:
            click.echo(f"{prog_name}: interrupted", err=True)
            code = 130
            _exit_now_if_threads_linger(code)
        code = code if isinstance(code, int) else 0
        if standalone_mode:
            sys.exit(code)
        return code


def _exit_now_if_threads_linger(code: int) -> None:
    """After Ctrl-C, leave at once even if a library thread would keep the
    process waiting at exit (an encoder thread interrupted mid-frame)."""
    if any(t.is_alive() and not t.daemon for t in threading.enumerate() if t is not threading.main_thread()):
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


@click.group("attention-cubes", cls=OneLineErrorGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="attention-cubes")
def cli():
    """Render 3D cube explainer videos of transformer attention."""


@cli.command("list")
def list_stages():
    """The stages: number, name, scene class (for manim / manim-slides), what it shows."""
    for number, stage in stage_catalogue().items():
        click.echo(f"{number:2d}  {stage.slug:<22} {stage.class_name:<22} {stage.summary}")


@cli.command("tensors")
@click.option("--out", "out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the stage tensors here (.npz, or .json with --format json).")
@click.option("--format", "fmt", type=click.Choice(["npz", "json", "summary"]), default=None,
              help="npz (default with --out), json, or a printed summary table (with each "
                   "head's role and, for --weights trained, what training did).")
@click.option("--leaves", is_flag=True,
              help="Write only the tensors --weights can set (e.g. the trained ones), so the "
                   "file reads back with --weights FILE.npz.")
@config_options
def tensors_command(out, fmt, leaves, config):
    """Export every stage tensor under its sNN_name key (docs/stages.md lists them)."""
    fmt = fmt or ("summary" if out is None else ("json" if out.suffix == ".json" else "npz"))
    if fmt != "summary" and out is None:
        raise click.UsageError(f"--format {fmt} needs --out FILE")
    if leaves and fmt != "npz":
        raise click.UsageError("--leaves writes an .npz for --weights: give --out FILE.npz")
    trace = traced(config)
    arrays = trace.leaves() if leaves else trace.export()
    if fmt == "summary":
        click.echo(f"# {config.describe()}")
        for name, array in arrays.items():
            shape = "x".join(map(str, array.shape))
            array = array.astype(int) if array.dtype == bool else array
            click.echo(f"{name:<34} {shape:>9}  min {array.min():>10.4g}  max {array.max():>10.4g}"
                       f"  {' × '.join(trace.axes(name))}")
        click.echo(f"weights: {_weights_line(trace)}")
        click.echo(trace.single_head_role().text("single head (stages 10-12)"))
        for role in trace.roles():
            click.echo(role.text())
        return
    axes = {name: trace.axes(name) for name in arrays}
    write_atomically(out, lambda tmp: _write_arrays(tmp, arrays, fmt, axes))
    click.echo(str(out))


def _weights_line(trace) -> str:
    """Where the numbers come from, in words (the summary's ``weights:`` line)."""
    config = trace.config
    if trace.training is not None:
        return trace.training.describe()
    drawn = {"torch-rand": "the blog's torch.rand", "xavier": "Xavier-uniform"}[config.init]
    own = f"; your own {', '.join(config.weights)}" if config.weights else ""
    return f"untrained, {drawn} draws, seed {config.seed}{own}"


def _write_arrays(path: Path, arrays, fmt: str, axes) -> None:
    if fmt == "npz":
        import numpy as np

        with open(path, "wb") as handle:
            np.savez(handle, **arrays)
    else:
        payload = {name: {"shape": list(a.shape), "axes": list(axes[name]), "dtype": str(a.dtype),
                          "data": a.tolist()}
                   for name, a in arrays.items()}
        path.write_text(json.dumps(payload))


def all_scenes_options(out: str, help: str, theme: str):
    """Options of the commands that render all scenes into one file."""

    def decorate(func):
        for option in reversed([
            click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=Path(out),
                         show_default=True, help=help),
            click.option("--quality", "-q", type=click.Choice(QUALITIES), default="low", show_default=True),
            click.option("--theme", type=click.Choice(["dark", "light"]), default=theme, show_default=True),
            click.option("--jobs", "-j", type=click.IntRange(min=1), default=None),
        ]):
            func = option(func)
        return config_options(func)

    return decorate


@cli.command("sheet")
@all_scenes_options("media/contact_sheet.png", "The PNG to write.", theme="light")
def sheet_command(out, quality, theme, jobs, config):
    """A contact sheet: the final frames of all scenes, numbered, for a handout."""
    import tempfile

    from scenes.assemble import contact_sheet

    with tempfile.TemporaryDirectory() as folder:
        results = _render_or_fail(list(stage_catalogue()), quality, "png", Path(folder),
                                  config, jobs, theme=theme)
        write_atomically(out, lambda tmp: contact_sheet([(r.job.number, r.path) for r in results], tmp))
    click.echo(str(out))


@cli.command("cut")
@all_scenes_options("media/attention_cubes.mp4", "The joined MP4 (chapters beside it as .chapters.vtt).",
                    theme="dark")
def cut_command(out, quality, theme, jobs, config):
    """The full-length cut: all scenes in one MP4, with a chapters file."""
    import tempfile

    from scenes.assemble import chapters_vtt, concatenate
    from scenes.stages import stage_registry

    registry = stage_registry()
    with tempfile.TemporaryDirectory() as folder:
        results = _render_or_fail(list(stage_catalogue()), quality, "mp4", Path(folder),
                                  config, jobs, theme=theme)
        starts: list[float] = []
        write_atomically(out, lambda tmp: starts.extend(concatenate([r.path for r in results], tmp)))
    import av

    with av.open(str(out)) as joined:
        total = float(joined.duration / av.time_base)
    ends = starts[1:] + [total]
    chapters = [(f"{r.job.number:02d} {registry[r.job.number].title_text(config)}", s, e)
                for r, s, e in zip(results, starts, ends)]
    vtt = out.with_suffix(".chapters.vtt")
    write_atomically(vtt, lambda tmp: tmp.write_text(chapters_vtt(chapters), encoding="utf-8"))
    click.echo(str(out))
    click.echo(str(vtt))


def _render(numbers, quality, fmt, out_dir, config, jobs, look=None, **options):
    """Render the scenes in parallel, progress on stderr; results in stage order."""
    from scenes.components.palette import LOOK
    from scenes.jobs import RenderJob, render_many

    with interrupts.deferred():
        importlib.import_module("scenes.base")  # Manim and the stages
    traced(config)  # once here: the render's own process or its workers then read the cache

    _ready_folder(out_dir)
    batch = [RenderJob(n, quality, fmt, out_dir, config, look or LOOK, **options) for n in numbers]
    return render_many(batch, jobs or os.cpu_count() or 1, report=lambda line: click.echo(line, err=True))


def _ready_folder(folder: Path) -> None:
    """Create ``folder`` if needed and check it can be written: one line if not."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise click.ClickException(f"cannot create the output folder {folder}: "
                                   f"{error.strerror or error}") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise click.ClickException(f"cannot write into the output folder {folder}")


def _render_or_fail(numbers, quality, fmt, out_dir, config, jobs, theme="dark"):
    from scenes.components.palette import Look

    results = _render(numbers, quality, fmt, out_dir, config, jobs, look=Look.from_options(theme))
    _raise_for_failures(results)
    return results


def _raise_for_failures(results) -> None:
    failed = [r for r in results if not r.ok]
    if failed:
        names = ", ".join(str(r.job.number) for r in failed)
        raise click.ClickException(
            f"{len(failed)} of {len(results)} scenes failed: {names} (reasons above)")


def write_atomically(final: Path, write) -> None:
    """Call ``write(tmp)`` on a temporary file beside ``final``, then rename it.

    A failure or Ctrl-C leaves nothing at ``final``.
    """
    final = Path(final)
    if final.is_dir():
        raise click.ClickException(f"{final} is a folder; give a file name")
    if not final.parent.exists():
        raise click.ClickException(f"cannot write {final}: folder {final.parent} does not exist")
    tmp = final.with_name(f".{final.name}.part-{os.getpid()}")
    try:
        write(tmp)
        os.replace(tmp, final)
    except OSError as error:
        raise click.ClickException(f"cannot write {final}: {error.strerror or error}") from None
    finally:
        tmp.unlink(missing_ok=True)


@cli.command("render")
@click.argument("scenes", nargs=-1)
@click.option("--all", "all_scenes", is_flag=True, help=f"Render all {stage_count()} scenes.")
@click.option("--quality", "-q", type=click.Choice(QUALITIES), default="low", show_default=True,
              help="low 480p15, medium 720p30, high 1080p60, 4k 2160p60.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="mp4", show_default=True,
              help="mp4 / gif video, or png: the last frame as a still.")
@click.option("--out-dir", "-o", type=click.Path(file_okay=False, path_type=Path),
              default=Path("media") / "videos", show_default=True, help="Where files go.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="Scenes rendered in parallel (default: the CPU count).")
@click.option("--theme", type=click.Choice(["dark", "light"]), default="dark", show_default=True,
              help="light: white background and dark labels, for projectors.")
@click.option("--flat", is_flag=True, help="Light off: flat colors, for exact reading.")
@click.option("--axes", is_flag=True, help="Name every block's axes: tokens / features / heads.")
@click.option("--floor", is_flag=True, help="A floor grid behind the blocks.")
@click.option("--captions", type=click.Choice(["burned", "srt"]), default="burned", show_default=True,
              help="burned: narration in the picture and in the .srt beside the video; "
                   "srt: only in the .srt (for players that show subtitles).")
@click.option("--sections", is_flag=True,
              help="Also one clip per step (NN_name_sections/ with a JSON index); "
                   "with --format png, one still per step.")
@click.option("--slides", is_flag=True,
              help="Also slides to step through, with speaker notes: manim-slides data in "
                   "OUT_DIR/slides/ and a deck that opens offline, OUT_DIR/deck/attention_cubes.html "
                   "(needs reveal.js once: see deck-assets).")
@config_options
def render_command(scenes, all_scenes, quality, fmt, out_dir, jobs, theme, flat, axes, floor,
                   captions, sections, slides, config):
    """Render SCENES (numbers and ranges: 3 7-9 20) or --all."""
    if all_scenes and scenes:
        raise click.UsageError("give scene numbers or --all, not both")
    if not all_scenes and not scenes:
        raise click.UsageError("name the scenes to render (e.g. 3 7-9) or use --all")
    numbers = list(stage_catalogue()) if all_scenes else parse_scene_spec(scenes)
    if slides:
        _deck_call(lambda deck: deck.require_reveal())  # before rendering, not after
    from scenes.components.palette import Look, Panel

    panel = Panel(axes=axes, floor=floor, captions=captions == "burned")
    results = _render(numbers, quality, fmt, out_dir, config, jobs,
                      look=Look.from_options(theme, flat, panel), sections=sections, slides=slides)
    for result in results:
        if result.ok:
            click.echo(str(result.path))
    done = [r.job.number for r in results if r.ok]
    if slides and done:
        click.echo(str(_slide_deck(out_dir, done)))
    _raise_for_failures(results)


def _slide_deck(out_dir: Path, numbers: list[int]) -> Path:
    """Join the scenes' slides into one deck folder that opens offline."""
    from scenes.jobs import SLIDES_FOLDER

    names = [stage_catalogue()[n].class_name for n in numbers]
    return _deck_call(lambda deck: deck.write_deck(out_dir / SLIDES_FOLDER, names, out_dir))


def _deck_call(action):
    """``action(scenes.deck)``, its DeckError as one line (exit 1)."""
    from scenes import deck

    try:
        return action(deck)
    except deck.DeckError as error:
        raise click.ClickException(str(error)) from None


@cli.command("deck-assets")
@click.option("--from", "tarball", type=click.Path(dir_okay=False, exists=True, path_type=Path), default=None,
              metavar="FILE.tgz", help="Use this npm package file instead of running npm pack.")
def deck_assets_command(tarball):
    """Get reveal.js for the offline slide deck (once; with npm) into the user's cache."""
    folder = _deck_call(lambda deck: deck.fetch_reveal(tarball))
    click.echo(str(folder))


def main(prog_name: str = "attention-cubes") -> None:
    """The installed command (``[project.scripts]``); ``render.py`` calls it too."""
    cli(prog_name=prog_name)


if __name__ == "__main__":
    main()
