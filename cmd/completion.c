/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * lab completion bash|zsh: a shell completion script generated from the
 * command table, so a new verb or option completes without editing it.
 * Host, group and switch names come from the database at completion
 * time, through 'lab completion words hosts|groups|switches'.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab/dburi.h"
#include "lab.h"

/* The shell code; the tables are printed before it. */
static const char completion_bash_body[] =
"_lab_words() {\n"
"\t\"$_lab_bin\" \"${_lab_dbargs[@]}\" completion words \"$1\" 2>/dev/null\n"
"}\n"
"\n"
"# Adds the candidates of a spec (words, @kinds) for $cur to COMPREPLY.\n"
"_lab_expand() {\n"
"\tlocal w words='' files=0 targets=0 pre='' rest=$cur g tw\n"
"\tfor w in $1; do\n"
"\t\tcase $w in\n"
"\t\t+) ;;\n"
"\t\t@files) files=1 ;;\n"
"\t\t@targets) targets=1 ;;\n"
"\t\t@commands) words+=\" $_lab_cmds\" ;;\n"
"\t\t@verbs) words+=\" ${_lab_verbs[$_lab_arg0]}\" ;;\n"
"\t\t@hosts) words+=\" $(_lab_words hosts)\" ;;\n"
"\t\t@groups) words+=\" $(_lab_words groups)\" ;;\n"
"\t\t@switches) words+=\" $(_lab_words switches)\" ;;\n"
"\t\t*) words+=\" $w\" ;;\n"
"\t\tesac\n"
"\tdone\n"
"\tif [[ $targets == 1 ]]; then\n"
"\t\t# microserver1,@xen,!ml115, @rack1&@gpu: complete the last part\n"
"\t\trest=${cur##*[,!&^]}\n"
"\t\tpre=${cur%\"$rest\"}\n"
"\t\ttw=''\n"
"\t\tfor g in $(_lab_words groups); do\n"
"\t\t\ttw+=\" @$g\"\n"
"\t\tdone\n"
"\t\t[[ $rest == @* ]] || tw+=\" $(_lab_words hosts)\"\n"
"\t\tCOMPREPLY+=($(compgen -P \"$pre\" -W \"$tw\" -- \"$rest\"))\n"
"\t\tif [[ -z $pre ]]; then\n"
"\t\t\tCOMPREPLY+=($(compgen -W \"$words\" -- \"$cur\"))\n"
"\t\tfi\n"
"\telse\n"
"\t\tCOMPREPLY+=($(compgen -W \"$words\" -- \"$cur\"))\n"
"\tfi\n"
"\tif [[ $files == 1 ]]; then\n"
"\t\tcompopt -o filenames 2>/dev/null\n"
"\t\tCOMPREPLY+=($(compgen -f -- \"$cur\"))\n"
"\tfi\n"
"\treturn 0\n"
"}\n"
"\n"
"_lab() {\n"
"\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev='' w key spec skip=0\n"
"\tlocal i=1 npos=0 _lab_bin=${COMP_WORDS[0]} _lab_arg0=''\n"
"\tlocal -a _lab_dbargs=() pos=()\n"
"\tCOMPREPLY=()\n"
"\t(( COMP_CWORD > 0 )) && prev=${COMP_WORDS[COMP_CWORD-1]}\n"
"\t# the shared options before the command\n"
"\twhile (( i < COMP_CWORD )); do\n"
"\t\tw=${COMP_WORDS[i]}\n"
"\t\tcase $w in\n"
"\t\t--db|--credentials)\n"
"\t\t\t_lab_dbargs+=(\"$w\" \"${COMP_WORDS[i+1]}\")\n"
"\t\t\t(( i += 2 )) ;;\n"
"\t\t--db=*|--credentials=*) _lab_dbargs+=(\"$w\"); (( i++ )) ;;\n"
"\t\t-*) (( i++ )) ;;\n"
"\t\t*) break ;;\n"
"\t\tesac\n"
"\tdone\n"
"\tif (( i > COMP_CWORD )); then\n"
"\t\t_lab_expand @files\n"
"\t\treturn 0\n"
"\tfi\n"
"\tif (( i == COMP_CWORD )); then\n"
"\t\tif [[ $cur == -* ]]; then\n"
"\t\t\t_lab_expand '--db --credentials --help --version'\n"
"\t\telse\n"
"\t\t\t_lab_expand @commands\n"
"\t\tfi\n"
"\t\treturn 0\n"
"\tfi\n"
"\tkey=${COMP_WORDS[i]}\n"
"\t(( i++ ))\n"
"\tif [[ -n ${_lab_verbs[$key]+x} ]]; then\n"
"\t\tif (( i == COMP_CWORD )); then\n"
"\t\t\tif [[ $cur == -* ]]; then\n"
"\t\t\t\t_lab_expand --help\n"
"\t\t\telse\n"
"\t\t\t\t_lab_expand \"${_lab_verbs[$key]}\"\n"
"\t\t\tfi\n"
"\t\t\treturn 0\n"
"\t\tfi\n"
"\t\tkey+=\" ${COMP_WORDS[i]}\"\n"
"\t\t(( i++ ))\n"
"\tfi\n"
"\t[[ -n ${_lab_opts[$key]+x} ]] || return 0\n"
"\tfor (( ; i < COMP_CWORD; i++ )); do\n"
"\t\tw=${COMP_WORDS[i]}\n"
"\t\tif (( skip )); then\n"
"\t\t\tskip=0\n"
"\t\t\tcontinue\n"
"\t\tfi\n"
"\t\tcase $w in\n"
"\t\t--db|--credentials)\n"
"\t\t\t_lab_dbargs+=(\"$w\" \"${COMP_WORDS[i+1]}\")\n"
"\t\t\tskip=1 ;;\n"
"\t\t--db=*|--credentials=*) _lab_dbargs+=(\"$w\") ;;\n"
"\t\t--*=*) ;;\n"
"\t\t--*) [[ -n ${_lab_optarg[\"$key $w\"]+x} ]] && skip=1 ;;\n"
"\t\t*)\n"
"\t\t\t(( npos == 0 )) && _lab_arg0=$w\n"
"\t\t\t(( npos++ )) ;;\n"
"\t\tesac\n"
"\tdone\n"
"\tif (( skip )); then\n"
"\t\t_lab_expand \"${_lab_optarg[\"$key $prev\"]}\"\n"
"\t\treturn 0\n"
"\tfi\n"
"\tif [[ $cur == -* ]]; then\n"
"\t\t_lab_expand \"${_lab_opts[$key]}\"\n"
"\t\treturn 0\n"
"\tfi\n"
"\tIFS=';' read -r -a pos <<< \"${_lab_args[$key]}\"\n"
"\tif (( npos < ${#pos[@]} )); then\n"
"\t\tspec=${pos[npos]}\n"
"\telif (( ${#pos[@]} > 0 )) && [[ ${pos[${#pos[@]}-1]} == *' +' ]]; then\n"
"\t\tspec=${pos[${#pos[@]}-1]}\n"
"\telse\n"
"\t\treturn 0\n"
"\tfi\n"
"\t_lab_expand \"$spec\"\n"
"}\n";

/* Prints s in single quotes for the shell. */
static void
sq(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s != '\0'; s++)
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	fputc('\'', f);
}

static int
all_lower(const char *s, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (!islower((unsigned char)s[i]) &&
		    !isdigit((unsigned char)s[i]) && s[i] != '-')
			return 0;
	return n > 0;
}

/* Appends the candidates of one word of a usage ("HOST|SWITCH") to b. */
static void
classify(struct lab_buf *b, const char *s, size_t n)
{
	static const struct {
		const char	*word, *spec;
	} kinds[] = {
		{ "TARGET", "@targets" }, { "HOST", "@hosts" },
		{ "SWITCH", "@switches" }, { "GROUP", "@groups" },
		{ "PATH", "@files" }, { "FILE", "@files" }, { "DIR", "@files" },
		{ "COMMAND", "@commands" }, { "VERB", "@verbs" },
	};
	size_t	i, len;

	while (n > 0) {
		len = strcspn(s, "|");
		if (len > n)
			len = n;
		if (all_lower(s, len))
			lab_buf_addf(b, " %.*s", (int)len, s);
		for (i = 0; i < LAB_ARRAY_SIZE(kinds); i++)
			if (strlen(kinds[i].word) == len &&
			    strncmp(kinds[i].word, s, len) == 0)
				lab_buf_addf(b, " %s", kinds[i].spec);
		s += len;
		n -= len;
		if (n > 0) {
			s++;
			n--;
		}
	}
}

/*
 * The positional arguments of a verb as "spec;spec", each spec a list of
 * words and @kinds; a repeating last one ends in " +".
 */
static void
arg_specs(struct lab_buf *b, const char *args)
{
	char	 word[128], *p;
	int	 rep = 0, first = 1;
	size_t	 len;

	while (args != NULL && *args != '\0') {
		args += strspn(args, " ");
		len = strcspn(args, " ");
		if (len == 0)
			break;
		snprintf(word, sizeof(word), "%.*s", (int)len, args);
		args += len;
		for (p = word; (p = strpbrk(p, "[]")) != NULL;)
			memmove(p, p + 1, strlen(p));
		if (!rep && !first)
			lab_buf_adds(b, ";");
		if ((p = strstr(word, "...")) != NULL) {
			*p = '\0';
			rep = 1;
		}
		first = 0;
		classify(b, word, strlen(word));
	}
	if (rep)
		lab_buf_adds(b, " +");
}

/* The option named by the n bytes of name that v declares, or NULL. */
static const struct lab_opt *
find_opt(const struct lab_verb *v, const char *name, size_t n)
{
	const struct lab_opt	*sets[2] = { v->opts, v->shared_opts }, *o;
	size_t			 i;

	for (i = 0; i < LAB_ARRAY_SIZE(sets); i++)
		for (o = sets[i]; o != NULL && o->name != NULL; o++)
			if (strlen(o->name) == n && strncmp(o->name, name, n) == 0)
				return o;
	return NULL;
}

/* The options the usage of (c, v) offers, from cmd_usage itself. */
static void
verb_tables(FILE *f, const struct lab_cmd *c, const struct lab_verb *v)
{
	const struct lab_opt	*o;
	const char *const	*w;
	struct lab_buf	 key, opts, spec;
	char		*text = NULL, *line, *save = NULL, *p;
	size_t		 size = 0, len;
	FILE		*m;

	lab_buf_init(&key);
	lab_buf_init(&opts);
	lab_buf_init(&spec);
	lab_buf_addf(&key, "%s%s%s", c->name, v->name ? " " : "",
	    v->name ? v->name : "");
	if ((m = open_memstream(&text, &size)) == NULL)
		abort();
	cmd_usage(m, c, v);
	fclose(m);
	p = strstr(text, "\noptions:\n");
	for (line = p ? strtok_r(p, "\n", &save) : NULL; line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "  --", 4) != 0)
			continue;
		line += 2;
		len = strcspn(line, " ");
		lab_buf_addf(&opts, "%s%.*s", opts.len ? " " : "", (int)len,
		    line);
		/* "--name ARG  help" takes a value; "--name     help" not */
		if (line[len] == ' ' && line[len + 1] != ' ' &&
		    line[len + 1] != '\0') {
			p = line + len + 1;
			fprintf(f, "_lab_optarg[");
			lab_buf_init(&spec);
			lab_buf_addf(&spec, "%s %.*s", key.s, (int)len, line);
			sq(f, spec.s);
			lab_buf_release(&spec);
			lab_buf_init(&spec);
			classify(&spec, p, strcspn(p, " "));
			/* the words an enumerated value takes */
			if ((o = find_opt(v, line + 2, len - 2)) != NULL) {
				for (w = o->values; w != NULL && *w != NULL;
				    w++)
					lab_buf_addf(&spec, " %s", *w);
				if (o->files)
					lab_buf_adds(&spec, " @files");
			}
			fprintf(f, "]=");
			sq(f, spec.len ? spec.s : "");
			fputc('\n', f);
			lab_buf_release(&spec);
		}
	}
	free(text);
	fprintf(f, "_lab_opts[");
	sq(f, key.s);
	fprintf(f, "]=");
	sq(f, opts.len ? opts.s : "");
	lab_buf_init(&spec);
	arg_specs(&spec, v->args);
	fprintf(f, "\n_lab_args[");
	sq(f, key.s);
	fprintf(f, "]=");
	sq(f, spec.len ? spec.s : "");
	fputc('\n', f);
	lab_buf_release(&spec);
	lab_buf_release(&opts);
	lab_buf_release(&key);
}

/* The tables of every command, verb and option. */
static void
tables(FILE *f)
{
	const struct lab_cmd	*c;
	const struct lab_verb	*v;
	size_t			 i;

	fprintf(f, "declare -gA _lab_verbs=() _lab_opts=() _lab_optarg=() "
	    "_lab_args=()\n_lab_cmds='");
	for (i = 0; (c = lab_commands[i]) != NULL; i++)
		fprintf(f, "%s%s", i ? " " : "", c->name);
	fprintf(f, "'\n");
	for (i = 0; (c = lab_commands[i]) != NULL; i++) {
		if (c->verbs[0].name != NULL) {
			fprintf(f, "_lab_verbs[%s]='", c->name);
			for (v = c->verbs; v->run != NULL; v++)
				fprintf(f, "%s%s", v == c->verbs ? "" : " ",
				    v->name);
			fprintf(f, "'\n");
		}
		for (v = c->verbs; v->run != NULL; v++)
			verb_tables(f, c, v);
	}
}

static int
completion_bash(struct lab_call *call, struct lab_err *err)
{
	(void)call;
	(void)err;
	printf("# bash completion for lab %s, generated by 'lab completion "
	    "bash'\n", LAB_VERSION);
	tables(stdout);
	printf("\n%s\ncomplete -F _lab lab\n", completion_bash_body);
	return LAB_EXIT_OK;
}

static int
completion_zsh(struct lab_call *call, struct lab_err *err)
{
	(void)call;
	(void)err;
	/* zsh runs the bash function through bashcompinit */
	printf("#compdef lab\n# zsh completion for lab %s, generated by 'lab "
	    "completion zsh'\nautoload -U +X bashcompinit && bashcompinit\n",
	    LAB_VERSION);
	tables(stdout);
	printf("\n%s\ncomplete -F _lab lab\n"
	    "[[ -n ${funcstack[1]-} && ${funcstack[1]} == _lab ]] || return 0\n"
	    "_bash_complete -F _lab \"$@\"\n", completion_bash_body);
	return LAB_EXIT_OK;
}

/* One name a line; nothing when there is no database yet. */
static int
completion_words(struct lab_call *call, struct lab_err *err)
{
	LAB_CLEANUP(lab_inventory_freep) struct lab_inventory *inv = NULL;
	struct lab_strv	 names;
	const char	*what = call->argv[0];
	size_t		 i;

	if (strcmp(what, "hosts") != 0 && strcmp(what, "groups") != 0 &&
	    strcmp(what, "switches") != 0)
		return lab_err_set(err, LAB_EXIT_INPUT, "no words '%s' (hosts, "
		    "groups or switches)", what);
	/* no database yet: no words (a server is asked anyway) */
	if (!lab_db_uri_is_pg(call->db_path) &&
	    access(call->db_path, F_OK) == -1)
		return LAB_EXIT_OK;
	if (cmd_inventory(call, &inv, err) == -1)
		return -1;
	for (i = 0; what[0] == 'h' && i < inv->nhosts; i++)
		printf("%s\n", inv->hosts[i].name);
	if (what[0] == 'g') {
		if (lab_inventory_group_names(inv, &names, err) == -1)
			return -1;
		for (i = 0; i < names.n; i++)
			printf("%s\n", names.v[i]);
		lab_strv_release(&names);
	}
	for (i = 0; what[0] == 's' && i < inv->nswitches; i++)
		printf("%s\n", inv->switches[i].name);
	return LAB_EXIT_OK;
}

static const struct lab_verb completion_verbs[] = {
	{ .name = "bash", .args = "", .min = 0, .max = 0,
	  .run = completion_bash,
	  .summary = "print the bash completion script" },
	{ .name = "zsh", .args = "", .min = 0, .max = 0, .run = completion_zsh,
	  .summary = "print the zsh completion script" },
	{ .name = "words", .args = "hosts|groups|switches", .min = 1, .max = 1,
	  .run = completion_words,
	  .summary = "print the names the scripts complete, one a line" },
	{ .name = NULL },
};

const struct lab_cmd lab_cmd_completion = {
	.name = "completion",
	.summary = "print a shell completion script generated from this table",
	.verbs = completion_verbs,
};
