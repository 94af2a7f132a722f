/*
 * unit.h
 *		A minimal TAP producer and CSV reader for the C unit tests.
 *
 * Each check prints "ok N - ..." or "not ok N - ...".  unit_done() prints
 * the plan and the "N passed, N failed" line, and returns the exit code.
 */
#ifndef ULID_UNIT_H
#define ULID_UNIT_H

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int	unit_passed;
static int	unit_failed;

static inline void
unit_check(int ok, const char *fmt,...)
{
	va_list		ap;

	printf("%s %d - ", ok ? "ok" : "not ok", unit_passed + unit_failed + 1);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (ok)
		unit_passed++;
	else
		unit_failed++;
}

static inline int
unit_done(void)
{
	printf("1..%d\n", unit_passed + unit_failed);
	printf("%d passed, %d failed\n", unit_passed, unit_failed);
	return unit_failed == 0 && unit_passed > 0 ? 0 : 1;
}

/* CSV: one record at a time, fields split in place; quotes and "" handled. */
#define CSV_MAX_FIELDS 16
#define CSV_MAX_LINE 2048

typedef struct csv_row
{
	int			nfields;
	char	   *field[CSV_MAX_FIELDS];
	char		buf[CSV_MAX_LINE];
} csv_row;

static inline int
csv_next(FILE *f, csv_row *row)
{
	char		line[CSV_MAX_LINE];
	char	   *in = line;
	char	   *out = row->buf;
	int			quoted = 0;

	if (!fgets(line, sizeof(line), f))
		return 0;
	row->nfields = 1;
	row->field[0] = out;
	for (; *in && *in != '\n' && *in != '\r'; in++)
	{
		if (quoted && *in == '"' && in[1] == '"')
			*out++ = *in++;
		else if (*in == '"')
			quoted = !quoted;
		else if (*in == ',' && !quoted && row->nfields < CSV_MAX_FIELDS)
		{
			*out++ = '\0';
			row->field[row->nfields++] = out;
		}
		else
			*out++ = *in;
	}
	*out = '\0';
	return 1;
}

/* Column index by header name; exits when the file lacks it. */
static inline int
csv_column(const csv_row *header, const char *name)
{
	for (int i = 0; i < header->nfields; i++)
		if (strcmp(header->field[i], name) == 0)
			return i;
	fprintf(stderr, "vector file has no column %s\n", name);
	exit(2);
}

static inline FILE *
open_vectors(const char *dir, const char *name, csv_row *header)
{
	char		path[1024];
	FILE	   *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f || !csv_next(f, header))
	{
		fprintf(stderr, "cannot read %s\n", path);
		exit(2);
	}
	return f;
}

/* Hex digits (an optional 0x prefix is skipped) to bytes; returns count. */
static inline size_t
hex_to_bytes(const char *hex, unsigned char *out, size_t max)
{
	size_t		n = 0;

	if (hex[0] == '0' && (hex[1] == 'x' || hex[1] == 'X'))
		hex += 2;
	while (isxdigit((unsigned char) hex[0]) && isxdigit((unsigned char) hex[1]) && n < max)
	{
		char		pair[3] = {hex[0], hex[1], '\0'};

		out[n++] = (unsigned char) strtoul(pair, NULL, 16);
		hex += 2;
	}
	return n;
}

#endif							/* ULID_UNIT_H */
