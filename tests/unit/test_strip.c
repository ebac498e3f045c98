/* test_strip.c — the strip chart renderer: values become glyphs on a fixed scale (0 is the lowest
 * glyph, anything above 0 is never drawn as 0, max and above is the highest, an unknown value is a
 * space), in the ASCII and the Unicode set, cut to the room given and never past it. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "strip.h"
#include "tap.h"

static void test_levels(void)
{
	ok(strip_level(0, 100, 8) == 0, "0 is level 0");
	ok(strip_level(-3, 100, 8) == 0, "below 0 is level 0");
	ok(strip_level(0.01, 100, 8) == 1, "the least wait above 0 is level 1, not 0");
	ok(strip_level(100, 100, 8) == 7, "max is the highest level");
	ok(strip_level(250, 100, 8) == 7, "above max is the highest level, not past it");
	ok(strip_level(99.99, 100, 8) == 7, "just below max is the highest level");
	ok(strip_level(50, 100, 8) == 4, "half of max is level 4 of 0..7");
	ok(strip_level(NAN, 100, 8) == -1, "NAN has no level");
	ok(strip_level(50, 100, 5) == 3, "half of max is level 3 of 0..4 (ASCII)");
}

static void test_render(void)
{
	double v[] = { NAN, 0, 1, 30, 50, 80, 100, 400 };
	char out[64];
	size_t len;

	len = strip_render(out, sizeof(out), v, 8, 100, STRIP_ASCII);
	is_str(out, " _.-=###", "ASCII: unknown, 0, 1%, 30%, 50%, 80%, 100%, 400%");
	ok(len == 8, "ASCII: one byte a value (%zu)", len);
	len = strip_render(out, sizeof(out), v, 8, 100, STRIP_UTF8);
	is_str(out, " \u2581\u2582\u2584\u2585\u2587\u2588\u2588", "UTF-8: the blocks from the lowest");
	ok(len == 1 + 7 * 3, "UTF-8: three bytes a block (%zu)", len);
	len = strip_render(out, 7, v + 1, 7, 100, STRIP_UTF8);
	ok(len == 6 && strlen(out) == 6, "UTF-8 cut to the room: two whole blocks in 7 bytes (%zu)", len);
	len = strip_render(out, 4, v, 8, 100, STRIP_ASCII);
	is_str(out, " _.", "ASCII cut to the room: three values in 4 bytes");
	len = strip_render(out, sizeof(out), v, 0, 100, STRIP_ASCII);
	ok(len == 0 && out[0] == '\0', "no values: an empty string");
	len = strip_render(out, sizeof(out), (double[]){ 5, 10 }, 2, 10, STRIP_ASCII);
	is_str(out, "=#", "the scale is the max given (10), not the values'");
}

static void test_max(void)
{
	ok(strip_max((double[]){ 3, NAN, 7.5, -2 }, 4) == 7.5, "the scale is the highest value, NAN passed over");
	ok(strip_max((double[]){ NAN, -1 }, 2) == 0, "none above 0: the scale is 0");
	ok(strip_max(NULL, 0) == 0, "no values: 0");
}

int main(void)
{
	test_levels();
	test_max();
	test_render();
	return tap_done();
}
