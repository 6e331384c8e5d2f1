"""A small curses program recorded for the vtgrid corpus (see README.md).

Draws boxes, the 8 colours and 256-colour pairs, attributes, a menu that
moves with the arrow keys, and a status line; q quits.
"""
import curses

ITEMS = ["Open file", "Save", "Search…", "Settings", "日本語メニュー", "Quit"]


def draw(scr, sel):
    scr.erase()
    h, w = scr.getmaxyx()
    scr.box()
    scr.addstr(0, 2, " curses demo ", curses.A_BOLD)
    attrs = [("normal", curses.A_NORMAL), ("bold", curses.A_BOLD), ("dim", curses.A_DIM),
             ("reverse", curses.A_REVERSE), ("underline", curses.A_UNDERLINE),
             ("standout", curses.A_STANDOUT), ("blink", curses.A_BLINK)]
    x = 2
    for name, a in attrs:
        scr.addstr(2, x, name, a)
        x += len(name) + 2
    for i in range(8):
        scr.addstr(4, 2 + i * 9, f" col {i} ", curses.color_pair(i + 1))
        scr.addstr(5, 2 + i * 9, f" bri {i} ", curses.color_pair(i + 1) | curses.A_BOLD)
    if curses.COLORS >= 256:
        for i in range(0, 96):
            scr.addstr(7 + i // 48, 2 + (i % 48) * 2, "  ", curses.color_pair(20 + i))
    win = curses.newwin(len(ITEMS) + 2, 30, 10, 4)
    win.box()
    win.addstr(0, 2, " Menu ", curses.A_BOLD | curses.color_pair(4))
    for i, item in enumerate(ITEMS):
        a = curses.A_REVERSE if i == sel else curses.A_NORMAL
        win.addstr(1 + i, 2, item.ljust(24), a)
    scr.hline(h - 3, 1, curses.ACS_HLINE, w - 2)
    scr.addstr(h - 2, 2, f"selected: {ITEMS[sel]}  (arrows move, q quits)")
    panel = curses.newwin(8, 40, 10, 40)
    panel.border("|", "|", "-", "-", "+", "+", "+", "+")
    panel.addstr(1, 2, "ACS: ")
    for j, ch in enumerate([curses.ACS_ULCORNER, curses.ACS_URCORNER, curses.ACS_LLCORNER,
                            curses.ACS_LRCORNER, curses.ACS_LTEE, curses.ACS_RTEE,
                            curses.ACS_BTEE, curses.ACS_TTEE, curses.ACS_PLUS,
                            curses.ACS_DIAMOND, curses.ACS_CKBOARD, curses.ACS_DEGREE,
                            curses.ACS_BULLET, curses.ACS_BLOCK]):
        panel.addch(1, 7 + j, ch)
    panel.addstr(3, 2, "italic-ish", curses.A_ITALIC if hasattr(curses, "A_ITALIC") else 0)
    panel.addstr(4, 2, "wide: 漢字テスト end")
    panel.addstr(5, 2, "accents: e\u0301a\u0300 ñ ü")
    scr.noutrefresh()
    win.noutrefresh()
    panel.noutrefresh()
    curses.doupdate()


def main(scr):
    curses.curs_set(0)
    curses.start_color()
    curses.use_default_colors()
    for i in range(8):
        curses.init_pair(i + 1, curses.COLOR_BLACK if i else curses.COLOR_WHITE, i)
    if curses.COLORS >= 256:
        for i in range(96):
            curses.init_pair(20 + i, -1, 16 + i * 2)
    sel = 0
    while True:
        draw(scr, sel)
        k = scr.getch()
        if k in (ord("q"), 27):
            return
        if k == curses.KEY_DOWN:
            sel = (sel + 1) % len(ITEMS)
        elif k == curses.KEY_UP:
            sel = (sel - 1) % len(ITEMS)


curses.wrapper(main)
