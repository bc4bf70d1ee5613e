#include <glib.h>
#include <stdio.h>

/* print() goes through stdio: one line at a time, so a test reading a pipe sees it at once. */
static inline void host_line_buffered_stdout(void) { setvbuf(stdout, NULL, _IOLBF, 0); }
