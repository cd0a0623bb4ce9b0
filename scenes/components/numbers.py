"""Numbers as the screen shows them: one formatter for bars, notes and captions.

Three significant digits, a power of ten only outside 0.0001 .. 99 999, a true
minus sign; a negative factor of a product in brackets. Captions that write
a cell's arithmetic or a softmax row use the same digits as the color bar.

Examples
--------
>>> shown_value(-2.84), factor(-1.0), factor(0.342)
('−2.84', '(−1)', '0.342')
"""

from __future__ import annotations

import numpy as np

__all__ = ["MASKED_SIGN", "format_value", "shown_value", "at_step_of", "factor", "tick_values", "own_colors",
           "cell_arithmetic", "quoted_terms", "cell_name", "operand", "fingerprint", "row_numbers", "shown_sum", "sum_terms",
           "shown_divisor", "shown_total"]



def format_value(value: float) -> str:
    """Three significant digits, written out from 0.0001 to 99 999 (17500,
    0.000324: a reader compares them without decoding an exponent); a power
    of ten outside that.

    >>> [format_value(v) for v in (2.247, -6.159, 0.006069, 24.67, 7.348e-4, 0.0, 1234.5, 17486.0)]
    ['2.25', '-6.16', '0.00607', '24.7', '0.000735', '0', '1230', '17500']
    >>> format_value(3.24e-6), format_value(-6.36e6), format_value(float("-inf"))
    ('3.24×10⁻⁶', '-6.36×10⁶', '-inf')
    """
    if value == 0:
        return "0"
    if not np.isfinite(value):  # a masked score's −inf, as the code writes it
        return f"{value}"
    if 1e-4 <= abs(value) < 1e3:
        return f"{value:.3g}"
    if 1e3 <= abs(value) < 1e5:
        return f"{float(f'{value:.3g}'):.0f}"
    mantissa, exponent = f"{value:.2e}".split("e")
    return f"{mantissa}×10{str(int(exponent)).translate(_SUPERSCRIPT)}"


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


MASKED_SIGN = "−∞"  # the one sign for a masked score, on blocks, in legends and in captions


def shown_value(value: float) -> str:
    """:func:`format_value` with a true minus sign, as a caption or note shows
    it; a masked score's −inf as :data:`MASKED_SIGN` (a caption's "−inf"
    beside the legend's "−∞" named one thing twice: 11, causal).

    >>> shown_value(-2.84), shown_value(float("-inf"))
    ('−2.84', '−∞')
    """
    if value == float("-inf"):
        return MASKED_SIGN
    return format_value(float(value)).replace("-", "−")


def at_step_of(values, last: float) -> list[str]:
    """``values`` written to the step :func:`shown_value` writes ``last`` at
    (a running sum's values, each read against the sum it ends in: "−4.00",
    "−1.10", "7.42", not "−4", "−1.1", "7.42"); as :func:`shown_value` each
    where ``last`` is written with a power of ten.

    >>> at_step_of([-4.003, -1.1, 7.4236], 7.4236), at_step_of([0.5, 97.43], 97.43)
    (['−4.00', '−1.10', '7.42'], ['0.5', '97.4'])
    """
    written = format_value(float(last))
    if "×" in written or not np.isfinite(last):
        return [shown_value(v) for v in values]
    decimals = len(written.split(".")[1]) if "." in written else 0
    return [f"{float(v):.{decimals}f}".replace("-", "−") for v in values]


def tick_values(value_range) -> tuple[str, str]:
    """The two ends of a color scale, written to one precision: three
    significant digits of the larger end, so the smaller reads at the same
    step (``2.70`` beside ``−2.91``; a value that is 0 to that precision
    reads ``0`` where it is 0 to three decimals too, else at its first
    significant digit: ``0.1 … 3767``). An exponent only from 100 000 up or where every digit
    would be a zero.

    >>> tick_values((-6.86, 24.67)), tick_values((1.64e-29, 1.0)), tick_values((-2.91, 2.7))
    (('−6.9', '24.7'), ('0', '1'), ('−2.91', '2.70'))
    >>> tick_values((0.0, 7.0)), tick_values((0.0, 1.0)), tick_values((0.0, 0.5))
    (('0', '7'), ('0', '1'), ('0', '0.500'))
    >>> tick_values((-0.0784, 0.0785)), tick_values((0.0, 17300.0)), tick_values((0.0, 0.0))
    (('−0.0784', '0.0785'), ('0', '17300'), ('0', '0'))
    >>> tick_values((1.41e-08, 6.36e+06)), tick_values((0.0003, 0.9997))
    (('0', '6.36×10⁶'), ('0', '1.000'))
    >>> tick_values((0.102, 3767.0)), tick_values((0.00103, 17329.0)), tick_values((0.228, 1.83e5))
    (('0.1', '3767'), ('0.001', '17329'), ('0.2', '1.83×10⁵'))
    """
    low, high = (float(v) for v in value_range)
    largest = max(abs(low), abs(high))
    if largest == 0:
        return "0", "0"
    if largest >= 1e5 or largest < 1e-4:
        return tuple(_not_zero(v) if abs(v) < 1e-3 * largest else shown_value(v) for v in (low, high))
    decimals = _decimals((low, high))
    if 0 <= low and high <= 1:  # weights and other shares: to the thousandth
        decimals = max(decimals, 3)
    ends = [f"{v:.{decimals}f}" for v in (low, high)]
    # an end that is a whole number (0 and 1 of weights, token ids) reads as one; torch.rand's 0.9997 stays
    # 1.000, never 1 (its largest can only be below 1)
    ends = [f"{round(v)}" if abs(v - round(v)) < 1e-12 else e for v, e in zip((low, high), ends)]
    return tuple(_not_zero(v) if float(e) == 0 else e.replace("-", "−") for v, e in zip((low, high), ends))


def _not_zero(value: float) -> str:
    """An end that rounds to 0 beside the other: ``0`` where it is 0 to three
    decimals, else to its first significant digit (an exp bar "0 … 3767"
    whose smallest is 0.102 read as a wrong end: 04_0101, 18_0253, the 49th
    reader).

    >>> _not_zero(0.102), _not_zero(-0.0042), _not_zero(0.0003), _not_zero(0.0)
    ('0.1', '−0.004', '0', '0')
    """
    if abs(value) < 5e-4:
        return "0"
    decimals = max(0, -int(np.floor(np.log10(abs(value)))))
    return f"{value:.{decimals}f}".replace("-", "−")


def shown_divisor(value: float) -> str:
    """A sum a row is divided by, written to the units from 1000 up (three
    significant digits, ``17500`` for 17452, made a weight of 0.993 read
    as 17330 ÷ 17500 = 0.990 by the nineteenth reader, 04_0103), else as
    :func:`shown_value`.

    >>> shown_divisor(17452.4), shown_divisor(30.81), shown_divisor(2.5e7)
    ('17452', '30.8', '2.50×10⁷')
    """
    value = float(value)
    return f"{value:.0f}" if 1e3 <= abs(value) < 1e5 else shown_value(value)


def shown_total(values) -> str:
    """The sum of a row of ``values`` (exponentials) as the row is divided
    by it: :func:`shown_divisor`, with one or two decimals more from 1000 up
    where a value written to the units, divided by the sum written to the
    units, gives another weight (three significant digits) than the true
    one (3767 ÷ 3773 = 0.998 beside a weight of 0.999, two readers: the
    sum is 3772.6).

    >>> shown_total(np.array([3767.21, 3.26, 1.92, 0.2])), shown_total(np.array([17329.4, 127.0]))
    ('3772.6', '17456')
    """
    values = np.asarray(values, float)
    total = float(values.sum())
    if not 1e3 <= abs(total) < 1e5:
        return shown_divisor(total)
    large = [float(f"{v:.0f}") for v in values if abs(v) >= 1e3]  # as the legend's end and a caption write them
    for decimals in (0, 1, 2):
        written = round(total, decimals)
        if all(f"{v / written:.3g}" == f"{v / total:.3g}" for v in large):
            break
    return f"{total:.{decimals}f}"


def shown_sum(terms, total: float) -> str:
    """``a + b + … = total`` written so that it adds up on screen: every
    number to the same decimals, the fewest (from three significant digits
    of the largest, up to two more) at which the written terms sum to the
    written total; else "≈" at the fewest decimals at which the written
    terms miss the written total by at most one in the last digit (nine
    terms at three significant digits read 0.68 beside "≈ 0.70", the 32nd
    reader), or at the most decimals tried.

    >>> shown_sum([0.6544, 0.2283], 0.8827)
    '0.6544 + 0.2283 = 0.8827'
    >>> shown_sum([1.5, -2.0], -0.5)
    '1.50 + (−2.00) = −0.50'
    >>> shown_sum([1.5, -0.25], 1.25), shown_sum([0.0004, 0.0004, 0.0004], 0.0012)
    ('1.50 + (−0.25) = 1.25', '0.00040 + 0.00040 + 0.00040 = 0.00120')
    >>> shown_sum([-0.644653, 0.952246], 0.307593)
    '(−0.645) + 0.952 ≈ 0.308'
    >>> shown_sum([0.654, 0.228, -0.690, 0.272, 0.294, 0.514, -0.458, -1.086, 0.971], 0.699)
    '0.654 + 0.228 + (−0.690) + 0.272 + 0.294 + 0.514 + (−0.458) + (−1.086) + 0.971 = 0.699'
    """
    terms, total = [float(t) for t in terms], float(total)
    decimals, sign = _sum_decimals(terms, total)
    return f"{' + '.join(_written(t, decimals) for t in terms)} {sign} {_written(total, decimals, False)}"


def sum_terms(terms, total: float) -> list[str]:
    """Each of ``terms`` as :func:`shown_sum` writes it (its decimals), no
    brackets: to stand beside its own block.

    >>> sum_terms([-0.644653, 0.952246], 0.307593)
    ['−0.645', '0.952']
    """
    terms = [float(t) for t in terms]
    decimals, _ = _sum_decimals(terms, float(total))
    return [_written(t, decimals, False) for t in terms]


def _sum_decimals(terms: list[float], total: float) -> tuple[int, str]:
    """The decimals :func:`shown_sum` writes at, and its sign ("=" or "≈")."""
    first = _decimals(terms + [total])
    tried = range(first, first + 3)

    def missed(decimals: int) -> float:
        """How far the written terms' sum is from the written total, in units of the last digit."""
        return abs(sum(round(t, decimals) for t in terms) - round(total, decimals)) * 10.0 ** decimals

    for decimals in tried:
        if missed(decimals) < 0.5:
            return decimals, "="
    return next((d for d in tried if missed(d) <= 1.0 + 1e-9), tried[-1]), "≈"


def _decimals(values) -> int:
    """Decimals for three significant digits of the largest of ``values``."""
    largest = max(abs(float(v)) for v in values) or 1.0
    return max(0, 2 - int(np.floor(np.log10(largest))))


def _written(value: float, decimals: int, term: bool = True) -> str:
    """``value`` to ``decimals``, a true minus; a negative ``term`` of a sum in brackets."""
    text = f"{value:.{decimals}f}".replace("-", "−")
    return f"({text})" if term and value < 0 and float(text.replace("−", "-")) != 0 else text


def factor(value: float) -> str:
    """A number as a factor of a product: a negative one in brackets; a
    rounded one with its three significant digits, a last 0 too (1.8955 is
    "1.90", not "1.9": a reader squaring "1.9" would not get the bar's 3.59).

    >>> factor(1.8955), factor(-0.5), factor(2.0), factor(123.4)
    ('1.90', '(−0.5)', '2', '123')
    """
    value = float(value)
    text = shown_value(value)
    if 1e-3 <= abs(value) < 1e3 and float(f"{value:.3g}") != value:
        text = f"{value:#.3g}".rstrip(".").replace("-", "−")
    return f"({text})" if value < 0 else text


def own_colors(value_range) -> str:
    """The note of a block on its own color scale (not the bar's).

    >>> own_colors((-2.84, 2.247))
    'own colors: −2.84 to 2.25'
    """
    low, high = (shown_value(v) for v in value_range)
    return f"own colors: {low} to {high}"


def quoted_terms(row: np.ndarray, column: np.ndarray, terms: int = 3) -> list[int]:
    """Which products of a dot product a caption writes out: the first
    ``terms``, in order, so a viewer finds them at the top of the products;
    where the largest product is not among them, the first ``terms - 1``
    and the largest (a weighted mix whose first weights are ~0 still shows
    the term that makes the sum).

    >>> quoted_terms(np.array([1.0, 2.0, 3.0, 0.5]), np.ones(4))
    [0, 1, 2]
    >>> quoted_terms(np.array([0.0, 0.01, 0.0, 0.99, 0.5]), np.ones(5))
    [0, 1, 3]
    """
    size = np.abs(np.asarray(row, float) * np.asarray(column, float))
    first = list(range(min(terms, len(size))))
    largest = int(np.argmax(size))
    if largest in first or len(first) < terms:
        return first
    return first[:-1] + [largest]


def cell_arithmetic(name: str, row: np.ndarray, column: np.ndarray, total: float, terms: int = 3,
                    cell: str | None = None) -> str:
    """``name[0, 0] = a·b + c·d + … = total``: one cell's dot product (its row
    of the left operand, its column of the right), with the products
    :func:`quoted_terms` picks, in their order, "…" for the others.
    ``cell`` names the cell instead (e.g. a vector's ``q[0]``).

    >>> cell_arithmetic("ω", np.array([0.5, -1.0, 2.0, 1.0]), np.array([0.5, 1.5, 1.0, 0.0]), 0.75)
    'ω[0, 0] = 0.5·0.5 + (−1)·1.5 + 2·1 + … = 0.750'
    >>> cell_arithmetic("z", np.array([0.0, 0.01, 0.0, 0.99, 0.5]), np.array([1.0, 2.0, 3.0, 4.0, 1.0]), 4.48)
    'z[0, 0] = 0·1 + 0.01·2 + … + 0.99·4 + … = 4.48'
    >>> cell_arithmetic("Q[0]", np.array([1.0]), np.array([2.0]), 2.0)
    'Q[0, 0, 0] = 1·2 = 2.00'
    """
    row, column = np.asarray(row, float), np.asarray(column, float)
    parts, last = [], -1
    for i in quoted_terms(row, column, terms):
        if i > last + 1:
            parts.append("…")
        parts.append(f"{factor(row[i])}·{factor(column[i])}")
        last = i
    if last < len(row) - 1:
        parts.append("…")
    if cell is None:
        cell = cell_name(name, 0, 0)
    # the total to three significant digits, trailing zeros kept (0.700, as a later sum writes it, not 0.7)
    return f"{cell} = {' + '.join(parts)} = {_written(float(total), _decimals([total]), False)}"


def cell_name(name: str, row: int, column: int) -> str:
    """Cell (row, column) of the matrix ``name``: ``ω[0, 0]``; of a head's
    slice ``t[h]``, one index: ``t[h, 0, 0]``; of a product, bracketed
    (``U_key·Xᵀ[0, 0]`` read as U_key times Xᵀ[0, 0]: 08_0109, the 52nd
    reader).

    >>> cell_name("ω", 0, 1), cell_name("multihead_omegas[2]", 0, 0), cell_name("U_key·Xᵀ", 0, 0)
    ('ω[0, 1]', 'multihead_omegas[2, 0, 0]', '(U_key·Xᵀ)[0, 0]')
    """
    return f"{name[:-1]}, {row}, {column}]" if name.endswith("]") else f"{operand(name)}[{row}, {column}]"


def operand(name: str) -> str:
    """``name`` as one operand, to be indexed: bracketed where it is an
    expression (``(U_key·Xᵀ)``, ``(ω′ / √17)``), else as it is.

    >>> operand("X"), operand("U_key·Xᵀ"), operand("multihead_omegas[0] / √17")
    ('X', '(U_key·Xᵀ)', '(multihead_omegas[0] / √17)')
    """
    return f"({name})" if any(sign in name for sign in ("·", " ", "@", "*", "/", "+")) else name


def fingerprint(values) -> tuple:
    """A block's numbers in short: how many, and the finite values' sum, min
    and max (a block holds a 2D matrix as 1 x rows x columns: the same).

    >>> fingerprint(np.array([1.0, -np.inf, 2.0]))
    (3, 3.0, 1.0, 2.0)
    """
    values = np.asarray(values, float)
    finite = values[np.isfinite(values)]
    if not finite.size:
        return values.size, 0.0, 0.0, 0.0
    return values.size, *(round(float(f), 5) for f in (finite.sum(), finite.min(), finite.max()))


def row_numbers(what: str, values: np.ndarray, total: str | None = None, shown: int = 3) -> str:
    """``what: a, b, c, …`` (3 significant digits, to the units from 1000 up: :func:`shown_divisor`) and,
    with ``total``, the row's sum.

    >>> row_numbers("exp(score)", np.array([2.0, 0.5, 0.25, 0.25]), total="sum")
    'exp(score): 2, 0.5, 0.25, … sum = 3'
    """
    values = np.asarray(values, float)
    parts = ", ".join(shown_divisor(v) for v in values[:shown])  # 17329, as the legend's end, not 17300
    more = ", …" if len(values) > shown else ""
    tail = f" {total} = {shown_total(values)}" if total else ""  # as the "÷" beside the row writes it
    return f"{what}: {parts}{more}{tail}"
