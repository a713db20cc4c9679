/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * yaml-floor FILE...: parses each file with libyaml's event loop and does
 * nothing else; bench/scale times it as the floor of an import.
 */
#include <stdio.h>

#include <yaml.h>

int
main(int argc, char **argv)
{
	yaml_parser_t	 p;
	yaml_event_t	 ev;
	FILE		*f;
	unsigned long	 events = 0;
	int		 i, done;

	for (i = 1; i < argc; i++) {
		if ((f = fopen(argv[i], "rb")) == NULL) {
			perror(argv[i]);
			return 1;
		}
		yaml_parser_initialize(&p);
		yaml_parser_set_input_file(&p, f);
		for (done = 0; !done; ) {
			if (!yaml_parser_parse(&p, &ev)) {
				fprintf(stderr, "%s:%zu: %s\n", argv[i],
				    p.problem_mark.line + 1,
				    p.problem ? p.problem : "parse error");
				return 1;
			}
			done = ev.type == YAML_STREAM_END_EVENT;
			yaml_event_delete(&ev);
			events++;
		}
		yaml_parser_delete(&p);
		fclose(f);
	}
	printf("%lu events\n", events);
	return 0;
}
