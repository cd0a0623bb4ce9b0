"""Contact sheet and full-length cut, on small made-up inputs."""

import av
import numpy as np
from PIL import Image

from scenes.assemble import chapters_vtt, concatenate, contact_sheet


def make_video(path, frames, color, fps=15):
    with av.open(str(path), "w") as container:
        stream = container.add_stream("libx264", rate=fps)
        stream.width, stream.height, stream.pix_fmt = 64, 48, "yuv420p"
        for _ in range(frames):
            image = np.full((48, 64, 3), color, dtype=np.uint8)
            for packet in stream.encode(av.VideoFrame.from_ndarray(image, format="rgb24")):
                container.mux(packet)
        for packet in stream.encode():
            container.mux(packet)


def test_concatenate_keeps_order_and_length(tmp_path):
    a, b, out = tmp_path / "a.mp4", tmp_path / "b.mp4", tmp_path / "ab.mp4"
    make_video(a, 15, (255, 0, 0))
    make_video(b, 30, (0, 0, 255))
    starts = concatenate([a, b], out)
    assert starts[0] == 0.0 and abs(starts[1] - 1.0) < 0.07
    with av.open(str(out)) as container:
        frames = [f.to_ndarray(format="rgb24") for f in container.decode(video=0)]
    assert len(frames) == 45
    assert frames[0][..., 0].mean() > 200 and frames[-1][..., 2].mean() > 200


def test_contact_sheet_grid(tmp_path):
    stills = []
    for n in range(1, 5):
        path = tmp_path / f"{n}.png"
        Image.new("RGB", (80, 45), (n * 50, 0, 0)).save(path)
        stills.append((n, path))
    out = tmp_path / "sheet.png"
    contact_sheet(stills, out, columns=3)
    sheet = Image.open(out)
    assert sheet.size[0] == 240 and sheet.size[1] > 90


def test_chapters_vtt():
    text = chapters_vtt([("01 Token ids", 0.0, 15.0), ("02 Embedding", 15.0, 31.25)])
    assert text.startswith("WEBVTT")
    assert "00:00:15.000 --> 00:00:31.250\n02 Embedding" in text
