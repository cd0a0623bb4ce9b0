"""Reusable visual pieces: palette, cube grid, camera, labels, color bar, motions."""
