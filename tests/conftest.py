import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
# Tests compute every trace with torch; tests/test_tensors.py checks the cache itself.
os.environ["ATTENTION_CUBES_TRACE_CACHE"] = "off"
