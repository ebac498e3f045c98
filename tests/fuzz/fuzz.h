/* fuzz.h — what the fuzz harnesses share: the input as a string of its own, and the input cut in
 * two at its first NUL byte, for parsers that take two texts. */
#ifndef DELAYTOP_FUZZ_H
#define DELAYTOP_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a NUL-terminated string in a buffer of exactly size + 1 bytes (so that reading past
 * it is caught); a NUL inside ends the string there, as it would end a file's text. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	if (size)
		memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* *second: what follows the first NUL of text (of size bytes as fuzz_text made it), or "". */
static inline const char *fuzz_second(const char *text, size_t size)
{
	size_t len = strlen(text);

	return len < size ? text + len + 1 : text + size;
}

#endif
