"""Lecture hand-outs from rendered scenes: a contact sheet and a full-length cut.

Examples
--------
>>> chapters_vtt([("03 ω = X·Xᵀ", 0.0, 26.5)]).splitlines()[2]
'00:00:00.000 --> 00:00:26.500'
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["contact_sheet", "concatenate", "chapters_vtt"]

SHEET_COLUMNS = 3


def contact_sheet(stills: list[tuple[int, Path]], out: Path, columns: int = SHEET_COLUMNS) -> None:
    """One image: every still in a grid, each under a band with its number."""
    from PIL import Image, ImageDraw, ImageFont

    images = [(n, Image.open(p).convert("RGB")) for n, p in stills]
    width, height = images[0][1].size
    band = max(24, height // 12)
    rows = (len(images) + columns - 1) // columns
    sheet = Image.new("RGB", (columns * width, rows * (height + band)), "white")
    draw = ImageDraw.Draw(sheet)
    try:
        font = ImageFont.truetype("DejaVuSans-Bold.ttf", int(band * 0.7))
    except OSError:
        font = ImageFont.load_default()
    for k, (number, image) in enumerate(images):
        r, c = divmod(k, columns)
        x, y = c * width, r * (height + band)
        draw.text((x + 8, y + band * 0.12), f"{number:02d}", fill="black", font=font)
        sheet.paste(image, (x, y + band))
    sheet.save(out, format="PNG")


def concatenate(videos: list[Path], out: Path) -> list[float]:
    """Join MP4s of the same size and rate into one, without re-encoding.

    Returns the start time (seconds) of each input in the joined video.
    """
    import av

    starts: list[float] = []
    with av.open(str(videos[0])) as first:
        template = first.streams.video[0]
        with av.open(str(out), "w", format="mp4") as output:
            stream = output.add_stream_from_template(template)
            offset = 0
            for path in videos:
                with av.open(str(path)) as source:
                    video = source.streams.video[0]
                    starts.append(float(offset * video.time_base))
                    last = 0
                    for packet in source.demux(video):
                        if packet.dts is None:
                            continue
                        last = max(last, packet.pts + (packet.duration or 0))
                        packet.pts += offset
                        packet.dts += offset
                        packet.stream = stream
                        output.mux(packet)
                    offset += last
    return starts


def _timestamp(seconds: float) -> str:
    ms = int(round(seconds * 1000))
    return f"{ms // 3_600_000:02d}:{ms // 60_000 % 60:02d}:{ms // 1000 % 60:02d}.{ms % 1000:03d}"


def chapters_vtt(chapters: list[tuple[str, float, float]]) -> str:
    """WebVTT chapter cues: (title, start, end) in seconds."""
    cues = ["WEBVTT", ""]
    for title, start, end in chapters:
        cues += [f"{_timestamp(start)} --> {_timestamp(end)}", title, ""]
    return "\n".join(cues)
