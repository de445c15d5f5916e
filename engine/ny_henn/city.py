"""City geometry (spec §2.7, §4.7, §5.2): building-rule checks and the longest outer street.

A city is a ``dict[(x, y)] -> tile id``. Checks return ``None`` when a change is legal and otherwise the
message naming the failed rule (§8), so the rules layer can raise it and the legal-move generator can
reuse the same code.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from engine.ny_henn.cards import DELTA, OPPOSITE, STREETS

Cell = tuple[int, int]
City = Mapping[Cell, str]

# The 8 cells around a cell in ring order (N, NE, E, SE, S, SW, W, NW): consecutive ring cells are
# 4-neighbours of each other, so an empty arc of the ring is a 4-connected empty path.
_RING: tuple[Cell, ...] = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))
_ORTHO_IN_RING = (0, 2, 4, 6)
_DIAGONALS: tuple[Cell, ...] = ((1, -1), (1, 1), (-1, 1), (-1, -1))


def fmt_cells(cells: Iterable[Cell]) -> str:
    """``(1,1),(2,1)``: cells sorted by row then column (§8 error form)."""
    return ",".join(f"({x},{y})" for x, y in sorted(cells, key=lambda c: (c[1], c[0])))


def holes(city: Iterable[Cell]) -> list[Cell]:
    """Empty cells of the box (bounding box + 1 ring) not 4-connected to the box border (§4.7 rule 4)."""
    occupied = set(city)
    xs = [x for x, _ in occupied]
    ys = [y for _, y in occupied]
    x0, x1, y0, y1 = min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1
    seen: set[Cell] = set()
    stack: list[Cell] = []
    for x in range(x0, x1 + 1):
        stack += [(x, y0), (x, y1)]
    for y in range(y0, y1 + 1):
        stack += [(x0, y), (x1, y)]
    while stack:
        c = stack.pop()
        if c in seen or c in occupied:
            continue
        seen.add(c)
        cx, cy = c
        for dx, dy in DELTA:
            n = (cx + dx, cy + dy)
            if x0 <= n[0] <= x1 and y0 <= n[1] <= y1 and n not in seen and n not in occupied:
                stack.append(n)
    return [
        (x, y)
        for y in range(y0, y1 + 1)
        for x in range(x0, x1 + 1)
        if (x, y) not in occupied and (x, y) not in seen
    ]


def fill_keeps_open(city: City, cell: Cell) -> bool:
    """True when occupying the empty ``cell`` of a hole-free city encloses nothing (fast local test).

    If all empty orthogonal neighbours of ``cell`` lie on one empty arc of its 8-ring they stay connected
    without it, so no region is cut off; otherwise a full flood fill decides (§4.7 rule 4).
    """
    x, y = cell
    empty = [(x + dx, y + dy) not in city for dx, dy in _RING]
    if all(empty):
        return True
    open_ortho = [i for i in _ORTHO_IN_RING if empty[i]]
    if not open_ortho:
        return True  # the cell was itself enclosed, which a valid city never has
    # Label arcs of consecutive empty ring cells, walking round from an occupied one.
    start = empty.index(False)
    arc = [-1] * 8
    label = 0
    for k in range(1, 9):
        i = (start + k) % 8
        if empty[i]:
            if arc[(i - 1) % 8] < 0 and not empty[(i - 1) % 8]:
                label += 1
            arc[i] = label
    if len({arc[i] for i in open_ortho}) == 1:
        return True
    return not holes([*city, cell])


def walk_reachable(city: City) -> set[Cell]:
    """Cells reachable from (0,0) moving between tiles across shared edges without a street (§4.7 rule 3)."""
    if (0, 0) not in city:
        return set()
    seen = {(0, 0)}
    stack = [(0, 0)]
    while stack:
        x, y = stack.pop()
        mine = STREETS[city[(x, y)]]
        for d, (dx, dy) in enumerate(DELTA):
            n = (x + dx, y + dy)
            if n in seen or n not in city:
                continue
            if not mine[d] and not STREETS[city[n]][OPPOSITE[d]]:
                seen.add(n)
                stack.append(n)
    return seen


def _edges_error(city: City, tile: str, cell: Cell) -> tuple[str | None, bool, bool]:
    """(edge-mismatch message or None, touches a neighbour, joined through a street-free edge)."""
    x, y = cell
    mine = STREETS[tile]
    touches = joined = False
    for d, (dx, dy) in enumerate(DELTA):
        n = (x + dx, y + dy)
        other = city.get(n)
        if other is None:
            continue
        touches = True
        if mine[d] != STREETS[other][OPPOSITE[d]]:
            return f"edge mismatch with ({n[0]},{n[1]})", touches, joined
        if not mine[d]:
            joined = True
    return None, touches, joined


def place_error(city: City, tile: str, cell: Cell) -> str | None:
    """Why ``tile`` may not be placed on the empty-or-not ``cell`` of the valid ``city`` (None = legal)."""
    if cell in city:
        return f"cell ({cell[0]},{cell[1]}) is occupied"
    error, touches, joined = _edges_error(city, tile, cell)
    if error:
        return error
    if not touches:
        x, y = cell
        if any((x + dx, y + dy) in city for dx, dy in _DIAGONALS):
            return "touches the city only at a corner"
        return "not adjacent to the city"
    if not joined:
        return "not reachable without crossing a street"
    if not fill_keeps_open(city, cell):
        enclosed = holes([*city, cell])
        return f"creates an enclosed empty area at {fmt_cells(enclosed)}"
    return None


def remove_error(city: City, cell: Cell) -> str | None:
    """Why the tile on ``cell`` may not be removed from the valid ``city`` (None = legal, §4.6)."""
    if cell not in city:
        return f"no tile at ({cell[0]},{cell[1]})"
    if cell == (0, 0):
        return "the start tile can never be removed or exchanged"
    x, y = cell
    # In a hole-free city every empty cell reaches the border, so the freed cell is the only candidate.
    if all((x + dx, y + dy) in city for dx, dy in DELTA):
        return f"creates an enclosed empty area at ({x},{y})"
    rest = {c: t for c, t in city.items() if c != cell}
    if len(walk_reachable(rest)) != len(rest):
        return "not reachable without crossing a street"
    return None


def swap_error(city: City, tile: str, cell: Cell) -> str | None:
    """Why ``tile`` may not replace the building on ``cell`` of the valid ``city`` (None = legal, §4.6)."""
    if cell not in city:
        return f"no tile at ({cell[0]},{cell[1]})"
    if cell == (0, 0):
        return "the start tile can never be removed or exchanged"
    rest = {c: t for c, t in city.items() if c != cell}
    error, _touches, _joined = _edges_error(rest, tile, cell)
    if error:
        return error
    rest[cell] = tile
    if len(walk_reachable(rest)) != len(rest):
        return "not reachable without crossing a street"
    return None


def city_error(city: City) -> str | None:
    """Full §4.7 validity check of a whole city (None = valid); used by tests and hand-built positions."""
    if not city.get((0, 0), "").startswith("S"):
        return "the start tile must be at (0,0)"
    for (x, y), tile in city.items():
        mine = STREETS[tile]
        for d in (1, 2):  # E and S cover every neighbouring pair once
            dx, dy = DELTA[d]
            other = city.get((x + dx, y + dy))
            if other is not None and mine[d] != STREETS[other][OPPOSITE[d]]:
                return f"edge mismatch with ({x + dx},{y + dy})"
    if len(walk_reachable(city)) != len(city):
        return "not reachable without crossing a street"
    enclosed = holes(city)
    if enclosed:
        return f"creates an enclosed empty area at {fmt_cells(enclosed)}"
    return None


def frontier(city: City) -> list[Cell]:
    """Empty cells orthogonally adjacent to the city, sorted by row then column."""
    cells = {(x + dx, y + dy) for x, y in city for dx, dy in DELTA if (x + dx, y + dy) not in city}
    return sorted(cells, key=lambda c: (c[1], c[0]))


def street_value(city: City) -> int:
    """Length of the longest continuous outer street (§5.2): outer street segments joined at corners.

    Segments are edges between lattice corners (corner (x,y) = top-left of cell (x,y)); the value is the
    largest number of segments in one connected component (a chain or a loop in a valid city).
    """
    parent: dict[Cell, Cell] = {}

    def find(c: Cell) -> Cell:
        while parent.setdefault(c, c) != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    segments: list[Cell] = []
    for (x, y), tile in city.items():
        streets = STREETS[tile]
        for d, (dx, dy) in enumerate(DELTA):
            if not streets[d] or (x + dx, y + dy) in city:
                continue
            # §2.7 edge segments: N (x,y)-(x+1,y), E (x+1,y)-(x+1,y+1), S (x,y+1)-(x+1,y+1), W (x,y)-(x,y+1)
            a, b = (
                ((x, y), (x + 1, y)),
                ((x + 1, y), (x + 1, y + 1)),
                ((x, y + 1), (x + 1, y + 1)),
                ((x, y), (x, y + 1)),
            )[d]
            ra, rb = find(a), find(b)
            if ra != rb:
                parent[ra] = rb
            segments.append(a)
    if not segments:
        return 0
    sizes: dict[Cell, int] = {}
    for a in segments:
        root = find(a)
        sizes[root] = sizes.get(root, 0) + 1
    return max(sizes.values())
