/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A userspace stand-in for netem (not in the CI kernel): a UDP relay that
 * holds each datagram for a delay and drops a fraction, between clients
 * and BMCs on loopback. Every tool compared goes through the same relay.
 *
 *	relay -d MS -l PERMILLE -p PORT [-t LOG] FRONT=BACK... [FRONT=none...]
 *
 * FRONT and BACK are IPv4 addresses: datagrams to FRONT:PORT go to
 * BACK:PORT after MS milliseconds (and the answers come back the same
 * way); FRONT=none swallows everything, a BMC that never answers. Loss is
 * per datagram and direction, from a fixed seed so runs are comparable.
 * Runs until SIGTERM or SIGINT. Benchmarks only: never a test.
 *
 * -t LOG writes a line per datagram, for bench/power-log.py:
 *	MS DIR FRONT CLIENTPORT LEN KIND LOST
 * MS since the relay started, DIR q (to the BMC) or r (to the client),
 * FRONT the front's index, KIND the RMCP+ payload type byte (0x10 Open
 * Session, 0x12 RAKP 1, 0x14 RAKP 3, 0x00 IPMI; "-" for IPMI 1.5),
 * LOST 1 when dropped. The log is line-buffered, so a reader can cut it
 * between two runs of a tool.
 *
 * -x FRONT:DIR:N (repeatable) drops the Nth datagram (from 1) that passes
 * front FRONT (its index) in direction DIR (q or r), whatever the loss
 * rate: one loss put exactly where a session's step is, to measure what
 * it costs a tool (bench/power-loss).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_FRONTS	1100
#define MAX_FLOWS	16384
#define MAX_QUEUE	65536

struct front {
	int			fd;
	struct sockaddr_in	addr;
	struct sockaddr_in	back;	/* sin_port 0: swallow */
};

/* One client talking to one front: its own socket towards the BMC. */
struct flow {
	int			fd;
	int			front;
	struct sockaddr_in	client;
	int64_t			last;	/* last datagram either way */
};

struct pkt {
	int64_t			due;
	int			fd;	/* socket to send from */
	struct sockaddr_in	to;
	size_t			len;
	unsigned char		data[1500];
};

static struct front	fronts[MAX_FRONTS];
static struct flow	flows[MAX_FLOWS];
static struct pkt	*queue;
static size_t		nfronts, nflows, qhead, qlen;
static int		delay_ms, loss_pm;
static uint64_t		rng = 0x9e3779b97f4a7c15ULL;
static volatile sig_atomic_t stop;
static FILE		*trace;
static struct {
	int	front, dir, n;
}			 drops[64];
static size_t		 ndrops;
static int		 seen[MAX_FRONTS][2];
static int64_t		 t0;

static int64_t
now_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int
lost(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (int)(rng % 1000) < loss_pm;
}

/* One line of the -t log; see the top. */
static void
log_pkt(char dir, int front, const struct sockaddr_in *client,
    const unsigned char *d, size_t len, int drop)
{
	char	kind[8] = "-";

	if (trace == NULL)
		return;
	/* RMCP class IPMI, auth type RMCP+ (6): the payload type follows */
	if (len > 5 && d[3] == 0x07 && d[4] == 0x06)
		snprintf(kind, sizeof(kind), "0x%02x", d[5] & 0x3f);
	fprintf(trace, "%lld %c %d %u %zu %s %d\n", (long long)(now_ms() - t0),
	    dir, front, (unsigned)ntohs(client->sin_port), len, kind, drop);
}

/* Whether -x drops this datagram, the next of FRONT's in direction DIR. */
static int
dropped(int front, int dir)
{
	size_t	i;
	int	n = ++seen[front][dir == 'r'];

	for (i = 0; i < ndrops; i++)
		if (drops[i].front == front && drops[i].dir == dir &&
		    drops[i].n == n)
			return 1;
	return 0;
}

/* Queues a datagram unless it is lost; returns 1 when lost. */
static int
enqueue(int front, int dir, int fd, const struct sockaddr_in *to,
    const unsigned char *d, size_t len)
{
	struct pkt	*p;

	if (dropped(front, dir) | lost() || qlen == MAX_QUEUE ||
	    len > sizeof(p->data))
		return 1;
	/* a constant delay keeps the queue in time order */
	p = &queue[(qhead + qlen++) % MAX_QUEUE];
	p->due = now_ms() + delay_ms;
	p->fd = fd;
	p->to = *to;
	p->len = len;
	memcpy(p->data, d, len);
	return 0;
}

static void
flush(void)
{
	struct pkt	*p;
	int64_t		 t = now_ms();

	while (qlen > 0 && (p = &queue[qhead])->due <= t) {
		sendto(p->fd, p->data, p->len, 0, (struct sockaddr *)&p->to,
		    sizeof(p->to));
		qhead = (qhead + 1) % MAX_QUEUE;
		qlen--;
	}
}

static struct flow *
flow_for(int front, const struct sockaddr_in *client)
{
	struct flow	*f;
	size_t		 i;

	int64_t		 t = now_ms();

	/* newest first: a run's flows are the last made */
	for (i = nflows; i-- > 0;)
		if (flows[i].front == front &&
		    flows[i].client.sin_port == client->sin_port &&
		    flows[i].client.sin_addr.s_addr ==
		    client->sin_addr.s_addr) {
			flows[i].last = t;
			return &flows[i];
		}
	if (nflows == MAX_FLOWS)
		return NULL;
	f = &flows[nflows];
	if ((f->fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0)) == -1)
		return NULL;
	f->front = front;
	f->client = *client;
	f->last = t;
	nflows++;
	return f;
}

/* Forgets flows idle for 5 s: every tool run makes new ones. */
static void
expire(void)
{
	int64_t	t = now_ms();
	size_t	i;

	for (i = 0; i < nflows; i++)
		if (t - flows[i].last > 5000) {
			close(flows[i].fd);
			flows[i--] = flows[--nflows];
		}
}

static int
parse_addr(const char *s, int port, struct sockaddr_in *ret)
{
	memset(ret, 0, sizeof(*ret));
	ret->sin_family = AF_INET;
	ret->sin_port = htons((uint16_t)port);
	return inet_pton(AF_INET, s, &ret->sin_addr) == 1 ? 0 : -1;
}

static void
on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

int
main(int argc, char **argv)
{
	static struct pollfd	pfd[MAX_FRONTS + MAX_FLOWS];
	struct sockaddr_in	from;
	struct rlimit		rl;
	socklen_t		fromlen;
	unsigned char		buf[1500];
	ssize_t			n;
	size_t			i, np;
	char			*eq;
	int			c, port = 623, timeout, one = 1, drop;

	while ((c = getopt(argc, argv, "d:l:p:t:x:")) != -1) {
		switch (c) {
		case 'd':
			delay_ms = atoi(optarg);
			break;
		case 'l':
			loss_pm = atoi(optarg);
			break;
		case 'p':
			port = atoi(optarg);
			break;
		case 't':
			if ((trace = fopen(optarg, "w")) == NULL) {
				fprintf(stderr, "relay: %s: %s\n", optarg,
				    strerror(errno));
				return 3;
			}
			setvbuf(trace, NULL, _IOLBF, 0);
			break;
		case 'x': {
			char	dir;

			if (ndrops == sizeof(drops) / sizeof(drops[0]) ||
			    sscanf(optarg, "%d:%c:%d", &drops[ndrops].front,
			    &dir, &drops[ndrops].n) != 3 ||
			    (dir != 'q' && dir != 'r') ||
			    drops[ndrops].front < 0 ||
			    drops[ndrops].front >= MAX_FRONTS) {
				fprintf(stderr, "relay: -x FRONT:q|r:N\n");
				return 2;
			}
			drops[ndrops++].dir = dir;
			break;
		}
		default:
			fprintf(stderr, "usage: relay -d MS -l PERMILLE -p PORT "
			    "[-t LOG] [-x FRONT:q|r:N] FRONT=BACK|none...\n");
			return 2;
		}
	}
	if ((queue = calloc(MAX_QUEUE, sizeof(*queue))) == NULL)
		return 3;
	/* a socket per front and per flow: far more than 1024 */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	for (i = (size_t)optind; i < (size_t)argc && nfronts < MAX_FRONTS; i++) {
		struct front	*f = &fronts[nfronts];

		if ((eq = strchr(argv[i], '=')) == NULL)
			return 2;
		*eq = '\0';
		if (parse_addr(argv[i], port, &f->addr) == -1)
			return 2;
		if (strcmp(eq + 1, "none") == 0)
			memset(&f->back, 0, sizeof(f->back));
		else if (parse_addr(eq + 1, port, &f->back) == -1)
			return 2;
		f->fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);
		setsockopt(f->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (f->fd == -1 || bind(f->fd, (struct sockaddr *)&f->addr,
		    sizeof(f->addr)) == -1) {
			fprintf(stderr, "relay: bind %s:%d: %s\n", argv[i], port,
			    strerror(errno));
			return 3;
		}
		nfronts++;
	}
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	t0 = now_ms();
	printf("ready\n");
	fflush(stdout);
	while (!stop) {
		expire();	/* before the poll set maps indexes to flows */
		np = 0;
		for (i = 0; i < nfronts; i++)
			pfd[np++] = (struct pollfd){ fronts[i].fd, POLLIN, 0 };
		for (i = 0; i < nflows; i++)
			pfd[np++] = (struct pollfd){ flows[i].fd, POLLIN, 0 };
		timeout = 100;
		if (qlen > 0) {
			int64_t	d = queue[qhead].due - now_ms();

			timeout = d < 0 ? 0 : (int)d;
		}
		if (poll(pfd, np, timeout) == -1 && errno != EINTR)
			return 3;
		for (i = 0; i < np; i++) {
			if (!(pfd[i].revents & POLLIN))
				continue;
			fromlen = sizeof(from);
			n = recvfrom(pfd[i].fd, buf, sizeof(buf), 0,
			    (struct sockaddr *)&from, &fromlen);
			if (n <= 0)
				continue;
			if (i < nfronts) {
				struct flow	*f;

				if (fronts[i].back.sin_port == 0 ||
				    (f = flow_for((int)i, &from)) == NULL)
					continue;
				drop = enqueue((int)i, 'q', f->fd,
				    &fronts[i].back, buf, (size_t)n);
				log_pkt('q', (int)i, &from, buf, (size_t)n, drop);
			} else {
				struct flow	*f = &flows[i - nfronts];

				f->last = now_ms();
				drop = enqueue(f->front, 'r',
				    fronts[f->front].fd, &f->client, buf,
				    (size_t)n);
				log_pkt('r', f->front, &f->client, buf,
				    (size_t)n, drop);
			}
		}
		flush();
	}
	if (trace != NULL)
		fclose(trace);
	return 0;
}
