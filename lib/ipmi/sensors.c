/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/ipmi.h"
#include "lab/str.h"
#include "ipmi-priv.h"

#define SDR_HEADER_LEN	5	/* id (2), version, type, length */
#define SDR_CHUNK	16	/* what every BMC can return in one piece */
#define SDR_WHOLE	0xff	/* bytes to read: "the entire record" */
#define SDR_LAST_ID	0xffff
#define SDR_MAX_RECORDS	4096	/* stops "next" ids that loop */
#define SDR_RETRIES	8	/* reservations lost to SDR updates */
#define SEL_POST_INIT	0x20000000u	/* below: time since BMC init */
#define SEL_RECORD_LEN	16
#define CC_NOT_PRESENT	IPMI_COMP_CODE_REQUESTED_SENSOR_DATA_OR_RECORD_NOT_PRESENT
#define MODIFIER_ALPHA	IPMI_SDR_ID_STRING_INSTANCE_MODIFIER_TYPE_ALPHA
#define NAME_MAX_LEN	IPMI_SDR_MAX_SENSOR_NAME_LENGTH

/* Get Sensor Reading's threshold comparison bits (IPMI 2.0, 35.14). */
#define THR_LNC		0x01
#define THR_LC		0x02
#define THR_LNR		0x04
#define THR_UNC		0x08
#define THR_UC		0x10
#define THR_UNR		0x20

static int
reserve(struct lab_ipmi *ip, uint16_t *res, struct lab_err *err)
{
	fiid_obj_t	rs;
	uint64_t	v;
	int		rv;

	if ((rs = fiid_obj_create(tmpl_cmd_reserve_sdr_repository_rs)) == NULL)
		return lab_err_oom(err);
	rv = ipmi_cmd_reserve_sdr_repository(ip->ctx, rs);
	if (rv < 0 && lab_ipmi_cc(rs) == IPMI_COMP_CODE_INVALID_COMMAND) {
		/* Reservations are optional: 0 then means "none". */
		*res = 0;
		rv = 0;
	} else if (lab_ipmi_check(ip, rv, "reserve SDR repository", rs,
	    IPMI_NET_FN_STORAGE_RQ, err) < 0)
		rv = -1;
	else if (fiid_obj_get(rs, "reservation_id", &v) != 1)
		rv = lab_err_set(err, LAB_EXIT_PARTIAL,
		    "BMC %s: reserve SDR repository: short response", ip->peer);
	else
		*res = (uint16_t)v;
	fiid_obj_destroy(rs);
	return rv;
}

/*
 * One Get SDR. Returns the number of bytes copied to buf, 0 when the BMC
 * refused with a completion code worth a retry (left in *cc), -1 on error.
 */
static int
get_sdr(struct lab_ipmi *ip, fiid_obj_t rs, uint16_t res, uint16_t id,
    uint8_t off, uint8_t want, uint8_t *buf, size_t size, uint16_t *next,
    int *cc, struct lab_err *err)
{
	uint64_t	v;
	int		rv, n;

	fiid_obj_clear(rs);
	rv = ipmi_cmd_get_sdr(ip->ctx, res, id, off, want, rs);
	*cc = lab_ipmi_cc(rs);
	if (rv < 0 && (*cc == IPMI_COMP_CODE_RESERVATION_CANCELLED ||
	    *cc == CC_NOT_PRESENT ||
	    *cc == IPMI_COMP_CODE_CANNOT_RETURN_REQUESTED_NUMBER_OF_BYTES ||
	    *cc == IPMI_COMP_CODE_REQUEST_DATA_LENGTH_INVALID ||
	    *cc == IPMI_COMP_CODE_REQUEST_DATA_LENGTH_LIMIT_EXCEEDED ||
	    *cc == IPMI_COMP_CODE_UNSPECIFIED_ERROR))
		return 0;
	if (lab_ipmi_check(ip, rv, "get SDR", rs, IPMI_NET_FN_STORAGE_RQ,
	    err) < 0)
		return -1;
	if (fiid_obj_get(rs, "next_record_id", &v) != 1 ||
	    (n = fiid_obj_get_data(rs, "record_data", buf, size)) <= 0)
		return lab_err_set(err, LAB_EXIT_PARTIAL,
		    "BMC %s: get SDR: short response", ip->peer);
	*next = (uint16_t)v;
	return n;
}

/*
 * Reads one record into rec: whole if the BMC can, else the header and
 * then SDR_CHUNK bytes at a time. Returns 1, 0 to restart after a lost
 * reservation, 2 when the repository is empty, -1 on error.
 */
static int
read_record(struct lab_ipmi *ip, fiid_obj_t rs, uint16_t res, uint16_t id,
    int *chunked, struct lab_sdr_rec *rec, uint16_t *next,
    struct lab_err *err)
{
	uint8_t		buf[IPMI_SDR_MAX_RECORD_LENGTH];
	unsigned	len, off, want;
	uint16_t	nx;
	int		n, cc;

	if (!*chunked) {
		n = get_sdr(ip, rs, res, id, 0, SDR_WHOLE, rec->data,
		    sizeof(rec->data), next, &cc, err);
		if (n < 0)
			return -1;
		if (n >= SDR_HEADER_LEN &&
		    (unsigned)n >= SDR_HEADER_LEN + (unsigned)rec->data[4]) {
			rec->len = SDR_HEADER_LEN + rec->data[4];
			return 1;
		}
		if (n == 0 && (cc == IPMI_COMP_CODE_RESERVATION_CANCELLED ||
		    cc == CC_NOT_PRESENT))
			goto refused;
		*chunked = 1;
	}
	n = get_sdr(ip, rs, res, id, 0, SDR_HEADER_LEN, rec->data,
	    sizeof(rec->data), next, &cc, err);
	if (n <= 0)
		goto refused;
	if (n < SDR_HEADER_LEN)
		return lab_err_set(err, LAB_EXIT_PARTIAL,
		    "BMC %s: get SDR: short record header", ip->peer);
	len = SDR_HEADER_LEN + rec->data[4];
	/* Get SDR's offset is one byte. */
	if (len > 0x100)
		return lab_err_set(err, LAB_EXIT_PARTIAL,
		    "BMC %s: get SDR: record of %u bytes", ip->peer, len);
	for (off = SDR_HEADER_LEN; off < len; off += (unsigned)n) {
		want = len - off < SDR_CHUNK ? len - off : SDR_CHUNK;
		n = get_sdr(ip, rs, res, id, (uint8_t)off, (uint8_t)want, buf,
		    sizeof(buf), &nx, &cc, err);
		if (n <= 0)
			goto refused;
		if ((unsigned)n > want)
			n = (int)want;
		memcpy(rec->data + off, buf, (size_t)n);
	}
	rec->len = len;
	return 1;
refused:
	if (n == 0 && cc == IPMI_COMP_CODE_RESERVATION_CANCELLED)
		return 0;
	if (n == 0 && id == 0 && cc == CC_NOT_PRESENT)
		return 2;
	if (n == 0)
		return lab_err_set(err, LAB_EXIT_PARTIAL,
		    "BMC %s: get SDR: completion code 0x%02x", ip->peer, cc);
	return -1;
}

/* Reads the whole SDR repository once per session. */
static int
sdr_load(struct lab_ipmi *ip, struct lab_err *err)
{
	struct lab_sdr_rec	*v = NULL, *nv;
	size_t			 n = 0, cap = 0;
	fiid_obj_t		 rs;
	uint16_t		 res, id = 0, next = 0;
	int			 chunked = 0, tries = 0, r;

	if (ip->sdr_loaded)
		return 0;
	if ((rs = fiid_obj_create(tmpl_cmd_get_sdr_rs)) == NULL)
		return lab_err_oom(err);
	if (reserve(ip, &res, err) < 0)
		goto fail;
	while (id != SDR_LAST_ID && n < SDR_MAX_RECORDS) {
		if (n == cap) {
			cap = cap != 0 ? cap * 2 : 16;
			if ((nv = realloc(v, cap * sizeof(*v))) == NULL) {
				lab_err_oom(err);
				goto fail;
			}
			v = nv;
		}
		r = read_record(ip, rs, res, id, &chunked, &v[n], &next, err);
		if (r < 0)
			goto fail;
		if (r == 2)
			break;
		if (r == 0) {
			/* The SDR changed under us: start over. */
			if (++tries > SDR_RETRIES) {
				lab_err_set(err, LAB_EXIT_PARTIAL, "BMC %s: "
				    "SDR repository keeps changing", ip->peer);
				goto fail;
			}
			if (reserve(ip, &res, err) < 0)
				goto fail;
			n = 0;
			id = 0;
			continue;
		}
		n++;
		if (next == id)
			break;
		id = next;
	}
	fiid_obj_destroy(rs);
	ip->sdr = v;
	ip->nsdr = n;
	ip->sdr_loaded = 1;
	return 0;
fail:
	fiid_obj_destroy(rs);
	free(v);
	return -1;
}

/* "temperature", "power supply": FreeIPMI's name in lower case. */
static char *
type_name(uint8_t type)
{
	const char	*s;
	char		*r, *p;

	if (IPMI_SENSOR_TYPE_IS_OEM(type))
		return lab_asprintf("oem 0x%02x", type);
	if ((s = ipmi_get_sensor_type_string(type)) == NULL)
		s = "unknown";
	if ((r = strdup(s)) == NULL)
		return NULL;
	for (p = r; *p != '\0'; p++)
		*p = (char)tolower((unsigned char)*p);
	return r;
}

/*
 * "degrees C", "RPM", "V": abbreviated, except temperatures, whose "C"
 * would read as coulombs. NULL for no unit.
 */
static char *
unit_name(ipmi_sdr_ctx_t sdr, const struct lab_sdr_rec *rec)
{
	uint8_t	pct, mod, rate, base, modunit;
	char	buf[128];
	int	full;

	if (ipmi_sdr_parse_sensor_units(sdr, rec->data, rec->len, &pct, &mod,
	    &rate, &base, &modunit) < 0 ||
	    base == IPMI_SENSOR_UNIT_UNSPECIFIED)
		return NULL;
	full = base == IPMI_SENSOR_UNIT_DEGREES_C ||
	    base == IPMI_SENSOR_UNIT_DEGREES_F ||
	    base == IPMI_SENSOR_UNIT_DEGREES_K ||
	    base == IPMI_SENSOR_UNIT_COULOMBS;
	if (ipmi_sensor_units_string(pct, mod, rate, base, modunit, buf,
	    sizeof(buf), !full) <= 0)
		return NULL;
	return strdup(buf);
}

/*
 * A threshold sensor's state from its comparison bits: non-critical is a
 * warning (FreeIPMI's interpret defaults call it nominal), critical and
 * non-recoverable are critical.
 */
static const char *
threshold_state(uint16_t bitmask)
{
	if (bitmask & (THR_LC | THR_LNR | THR_UC | THR_UNR))
		return "critical";
	if (bitmask & (THR_LNC | THR_UNC))
		return "warning";
	return "nominal";
}

/* A discrete sensor's state, as FreeIPMI's interpret library sees it. */
static const char *
state_name(ipmi_interpret_ctx_t interp, uint8_t ertc, uint8_t type,
    uint16_t bitmask)
{
	unsigned	st;

	if (IPMI_EVENT_READING_TYPE_CODE_IS_THRESHOLD(ertc))
		return threshold_state(bitmask);
	if (ipmi_interpret_sensor(interp, ertc, type, bitmask, &st) < 0)
		return "unknown";
	switch (st) {
	case IPMI_INTERPRET_STATE_NOMINAL:
		return "nominal";
	case IPMI_INTERPRET_STATE_WARNING:
		return "warning";
	case IPMI_INTERPRET_STATE_CRITICAL:
		return "critical";
	default:
		return "unknown";
	}
}

/* How many sensors a record stands for, and how their names differ. */
static uint8_t
share_count(ipmi_sdr_ctx_t sdr, const struct lab_sdr_rec *rec,
    uint8_t *modtype, uint8_t *modoff)
{
	uint8_t	count, inst;

	*modtype = IPMI_SDR_ID_STRING_INSTANCE_MODIFIER_TYPE_NUMERIC;
	*modoff = 0;
	if (rec->data[3] != IPMI_SDR_FORMAT_COMPACT_SENSOR_RECORD ||
	    ipmi_sdr_parse_sensor_record_sharing(sdr, rec->data, rec->len,
	    &count, modtype, modoff, &inst) < 0 || count == 0)
		return 1;
	return count;
}

/*
 * The ID string, plus the instance modifier of a shared record ("CPU1",
 * "DIMM B"). FreeIPMI's ipmi_sdr_parse_sensor_name() would do it but
 * insists on an SDR cache file.
 */
static void
sensor_name(ipmi_sdr_ctx_t sdr, const struct lab_sdr_rec *rec, uint8_t idx,
    char *buf, size_t size)
{
	char		 id[IPMI_SDR_MAX_ID_STRING_LENGTH + 1], sfx[8];
	uint8_t		 modtype, modoff, count;
	unsigned	 k;
	size_t		 i;

	memset(id, 0, sizeof(id));
	if (ipmi_sdr_parse_id_string(sdr, rec->data, rec->len, id,
	    sizeof(id) - 1) < 0 || id[0] == '\0')
		snprintf(id, sizeof(id), "sensor #%u",
		    (unsigned)rec->data[7] + idx);
	count = share_count(sdr, rec, &modtype, &modoff);
	sfx[0] = '\0';
	if (count > 1) {
		k = (unsigned)modoff + idx;
		if (modtype == MODIFIER_ALPHA) {
			/* A..Z, then AA.. as spreadsheets count. */
			i = sizeof(sfx) - 1;
			sfx[i] = '\0';
			do {
				sfx[--i] = (char)('A' + k % 26);
				k = k / 26;
			} while (k-- > 0 && i > 0);
			memmove(sfx, sfx + i, sizeof(sfx) - i);
		} else
			snprintf(sfx, sizeof(sfx), "%u", k);
	}
	snprintf(buf, size, "%s%s", id, sfx);
}

/* The session, not just this sensor, is gone. */
static int
fatal(struct lab_ipmi *ip)
{
	switch (ipmi_ctx_errnum(ip->ctx)) {
	case IPMI_ERR_SESSION_TIMEOUT:
	case IPMI_ERR_CONNECTION_TIMEOUT:
	case IPMI_ERR_OUT_OF_MEMORY:
	case IPMI_ERR_SYSTEM_ERROR:
		return 1;
	default:
		return 0;
	}
}

struct sensor_walk {
	struct lab_ipmi		*ip;
	ipmi_sdr_ctx_t		 sdr;
	ipmi_sensor_read_ctx_t	 rd;
	ipmi_interpret_ctx_t	 interp;
	struct lab_sensor	*v;
	size_t			 n, cap;
};

/* Reads sensor number+share of one full or compact record. */
static int
add_sensor(struct sensor_walk *w, const struct lab_sdr_rec *rec,
    uint8_t share, struct lab_err *err)
{
	struct lab_sensor	*s, *nv;
	uint8_t			 num, type, ertc, raw;
	uint16_t		 bitmask = 0;
	double			*reading = NULL;
	char			 name[NAME_MAX_LEN + 1];
	const char		*state = "unknown";
	int			 r, e;

	if (ipmi_sdr_parse_sensor_number(w->sdr, rec->data, rec->len,
	    &num) < 0 ||
	    ipmi_sdr_parse_sensor_type(w->sdr, rec->data, rec->len,
	    &type) < 0 ||
	    ipmi_sdr_parse_event_reading_type_code(w->sdr, rec->data,
	    rec->len, &ertc) < 0)
		return 0;	/* a malformed record: skip it */
	sensor_name(w->sdr, rec, share, name, sizeof(name));

	r = ipmi_sensor_read(w->rd, rec->data, rec->len, share, &raw, &reading,
	    &bitmask);
	e = ipmi_sensor_read_ctx_errnum(w->rd);
	if (r < 0 && e == IPMI_SENSOR_READ_ERR_OUT_OF_MEMORY)
		return lab_err_oom(err);
	if (r < 0 && e == IPMI_SENSOR_READ_ERR_IPMI_ERROR && fatal(w->ip))
		return lab_ipmi_fail(w->ip, "get sensor reading", NULL,
		    IPMI_NET_FN_SENSOR_EVENT_RQ, err);
	/* 0: no value, but the event bits are good unless unreadable. */
	if (r == 1 || (r == 0 &&
	    (e == IPMI_SENSOR_READ_ERR_SENSOR_NON_ANALOG ||
	    e == IPMI_SENSOR_READ_ERR_SENSOR_NON_LINEAR)))
		state = state_name(w->interp, ertc, type, bitmask);

	if (w->n == w->cap) {
		w->cap = w->cap != 0 ? w->cap * 2 : 16;
		if ((nv = realloc(w->v, w->cap * sizeof(*nv))) == NULL) {
			free(reading);
			return lab_err_oom(err);
		}
		w->v = nv;
	}
	s = &w->v[w->n];
	memset(s, 0, sizeof(*s));
	if (r == 1 && reading != NULL) {
		s->has_value = 1;
		s->value = *reading;
	}
	free(reading);
	s->name = strdup(name);
	s->type = type_name(type);
	s->state = strdup(state);
	if (IPMI_EVENT_READING_TYPE_CODE_IS_THRESHOLD(ertc))
		s->unit = unit_name(w->sdr, rec);
	w->n++;
	if (s->name == NULL || s->type == NULL || s->state == NULL)
		return lab_err_oom(err);
	return 0;
}

/* Frees sensors as returned by lab_ipmi_sensors(). */
void
lab_sensors_free(struct lab_sensor *v, size_t n)
{
	size_t	i;

	if (v == NULL)
		return;
	for (i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].type);
		free(v[i].unit);
		free(v[i].state);
	}
	free(v);
}

static unsigned
read_flags(unsigned wa)
{
	unsigned	f = IPMI_SENSOR_READ_FLAGS_DEFAULT;

	if (wa & LAB_IPMI_WA_DISCRETEREADING)
		f |= IPMI_SENSOR_READ_FLAGS_DISCRETE_READING;
	if (wa & LAB_IPMI_WA_IGNORESCANNINGDISABLED)
		f |= IPMI_SENSOR_READ_FLAGS_IGNORE_SCANNING_DISABLED;
	if (wa & LAB_IPMI_WA_ASSUMEBMCOWNER)
		f |= IPMI_SENSOR_READ_FLAGS_ASSUME_BMC_OWNER;
	return f;
}

/* Reads every sensor of the SDR's full and compact records. */
int
lab_ipmi_sensors(struct lab_ipmi *ip, struct lab_sensor **ret, size_t *n,
    struct lab_err *err)
{
	struct sensor_walk	 w = { .ip = ip };
	uint8_t			 share, mod, off;
	size_t			 i;
	unsigned		 k;
	int			 rv = -1;

	if (sdr_load(ip, err) < 0)
		return -1;
	if ((w.sdr = ipmi_sdr_ctx_create()) == NULL ||
	    (w.rd = ipmi_sensor_read_ctx_create(ip->ctx)) == NULL ||
	    (w.interp = ipmi_interpret_ctx_create()) == NULL ||
	    ipmi_sensor_read_ctx_set_flags(w.rd,
	    read_flags(ip->workarounds)) < 0) {
		lab_err_oom(err);
		goto out;
	}
	for (i = 0; i < ip->nsdr; i++) {
		const struct lab_sdr_rec *rec = &ip->sdr[i];

		if (rec->data[3] != IPMI_SDR_FORMAT_FULL_SENSOR_RECORD &&
		    rec->data[3] != IPMI_SDR_FORMAT_COMPACT_SENSOR_RECORD)
			continue;
		share = share_count(w.sdr, rec, &mod, &off);
		for (k = 0; k < share; k++)
			if (add_sensor(&w, rec, (uint8_t)k, err) < 0)
				goto out;
	}
	*ret = lab_steal(&w.v);
	*n = w.n;
	rv = 0;
out:
	if (rv < 0)
		lab_sensors_free(w.v, w.n);
	ipmi_interpret_ctx_destroy(w.interp);
	ipmi_sensor_read_ctx_destroy(w.rd);
	ipmi_sdr_ctx_destroy(w.sdr);
	return rv;
}

struct sel_walk {
	struct lab_ipmi		*ip;
	ipmi_sdr_ctx_t		 sdr;
	struct lab_sel_entry	*v;
	size_t			 n, cap;
	int			 oom;
};

/*
 * The SDR record of the sensor that logged an event: owner id, LUN and
 * number as the SEL record's generator id and sensor number give them.
 */
static const struct lab_sdr_rec *
sel_sdr(struct sel_walk *w, const uint8_t *ev, uint8_t *idx)
{
	const struct lab_sdr_rec	*rec;
	uint8_t				 modtype, modoff, count;
	size_t				 i;

	for (i = 0; i < w->ip->nsdr; i++) {
		rec = &w->ip->sdr[i];
		if (rec->len < 8 ||
		    (rec->data[3] != IPMI_SDR_FORMAT_FULL_SENSOR_RECORD &&
		    rec->data[3] != IPMI_SDR_FORMAT_COMPACT_SENSOR_RECORD) ||
		    rec->data[5] != ev[7] ||
		    (rec->data[6] & 0x03) != (ev[8] & 0x03))
			continue;
		count = share_count(w->sdr, rec, &modtype, &modoff);
		if (ev[11] >= rec->data[7] && ev[11] - rec->data[7] < count) {
			*idx = (uint8_t)(ev[11] - rec->data[7]);
			return rec;
		}
	}
	return NULL;
}

/* A raw threshold value in the sensor's unit, as "75.00 degrees C". */
static void
sel_value(struct sel_walk *w, const struct lab_sdr_rec *rec, uint8_t raw,
    char *buf, size_t size)
{
	int8_t	rexp, bexp;
	int16_t	m, b;
	uint8_t	lin, fmt;
	double	v;
	char	*unit;

	if (ipmi_sdr_parse_sensor_decoding_data(w->sdr, rec->data, rec->len,
	    &rexp, &bexp, &m, &b, &lin, &fmt) < 0 ||
	    ipmi_sensor_decode_value(rexp, bexp, m, b, lin, fmt, raw, &v) < 0) {
		snprintf(buf, size, "0x%02x", raw);
		return;
	}
	unit = unit_name(w->sdr, rec);
	snprintf(buf, size, "%.2f%s%s", v, unit != NULL ? " " : "",
	    unit != NULL ? unit : "");
	free(unit);
}

/*
 * A system event's text. Threshold events name the reading and the
 * threshold in the sensor's unit, which FreeIPMI only does with an SDR
 * cache file: "Upper Critical - going high ; Sensor Reading = 85.00
 * degrees C ; Threshold = 80.00 degrees C".
 */
static char *
sel_event_text(struct sel_walk *w, ipmi_sel_ctx_t sel, const uint8_t *ev,
    const struct lab_sdr_rec *rec)
{
	char	what[256], reading[64], thr[64];
	int	full;

	full = rec != NULL &&
	    rec->data[3] == IPMI_SDR_FORMAT_FULL_SENSOR_RECORD &&
	    (ev[12] & 0x7f) == IPMI_EVENT_READING_TYPE_CODE_THRESHOLD &&
	    ((ev[13] >> 6) & 0x03) == 0x01 && ((ev[13] >> 4) & 0x03) == 0x01;
	if (ipmi_sel_parse_read_record_string(sel, full ? "%e" : "%E", ev,
	    SEL_RECORD_LEN, what, sizeof(what),
	    IPMI_SEL_STRING_FLAGS_IGNORE_UNAVAILABLE_FIELD) < 0 ||
	    what[0] == '\0')
		snprintf(what, sizeof(what), "event 0x%02x", ev[13] & 0x0f);
	if (!full)
		return strdup(what);
	sel_value(w, rec, ev[14], reading, sizeof(reading));
	sel_value(w, rec, ev[15], thr, sizeof(thr));
	return lab_asprintf("%s ; Sensor Reading = %s ; Threshold = %s", what,
	    reading, thr);
}

static int
sel_entry(ipmi_sel_ctx_t sel, void *data)
{
	struct sel_walk			*w = data;
	struct lab_sel_entry		*e, *nv;
	const struct lab_sdr_rec	*rec;
	uint8_t				 ev[SEL_RECORD_LEN], idx = 0;
	uint32_t			 ts = 0;
	char				 name[NAME_MAX_LEN + 1];
	char				 buf[256], *text, *t;
	int				 cls;

	if (w->n == w->cap) {
		w->cap = w->cap != 0 ? w->cap * 2 : 16;
		if ((nv = realloc(w->v, w->cap * sizeof(*nv))) == NULL) {
			w->oom = 1;
			return -1;
		}
		w->v = nv;
	}
	/* Unreadable entries are skipped, not fatal. */
	if (ipmi_sel_parse_read_record(sel, ev, sizeof(ev)) != SEL_RECORD_LEN)
		return 0;
	e = &w->v[w->n];
	memset(e, 0, sizeof(*e));
	e->id = (unsigned)ev[0] | (unsigned)ev[1] << 8;
	cls = ipmi_sel_record_type_class(ev[2]);
	if ((cls == IPMI_SEL_RECORD_TYPE_CLASS_SYSTEM_EVENT_RECORD ||
	    cls == IPMI_SEL_RECORD_TYPE_CLASS_TIMESTAMPED_OEM_RECORD) &&
	    ipmi_sel_parse_read_timestamp(sel, ev, sizeof(ev), &ts) == 0 &&
	    ts >= SEL_POST_INIT && ts != 0xffffffffu)
		e->time = ts;
	if (cls == IPMI_SEL_RECORD_TYPE_CLASS_SYSTEM_EVENT_RECORD) {
		if ((rec = sel_sdr(w, ev, &idx)) != NULL) {
			sensor_name(w->sdr, rec, idx, name, sizeof(name));
			e->sensor = strdup(name);
		} else if ((t = type_name(ev[10])) != NULL) {
			e->sensor = lab_asprintf("%s #%u", t, ev[11]);
			free(t);
		}
		if (e->sensor == NULL) {
			w->oom = 1;
			return -1;
		}
		text = sel_event_text(w, sel, ev, rec);
		/* Event direction: bit 7 of the event type byte. */
		if (text != NULL && (ev[12] & 0x80)) {
			e->event = lab_asprintf("%s (deasserted)", text);
			free(text);
		} else
			e->event = text;
	} else {
		if (ipmi_sel_parse_read_record_string(sel, "%o", ev,
		    sizeof(ev), buf, sizeof(buf),
		    IPMI_SEL_STRING_FLAGS_IGNORE_UNAVAILABLE_FIELD) < 0)
			buf[0] = '\0';
		e->event = lab_asprintf("OEM record 0x%02x: %s", ev[2], buf);
	}
	w->n++;
	if (e->event == NULL) {
		w->oom = 1;
		return -1;
	}
	return 0;
}

/* Frees entries as returned by lab_ipmi_sel(). */
void
lab_sel_free(struct lab_sel_entry *v, size_t n)
{
	size_t	i;

	if (v == NULL)
		return;
	for (i = 0; i < n; i++) {
		free(v[i].sensor);
		free(v[i].event);
	}
	free(v);
}

/* Reads the SEL, naming sensors from the SDR when it can be read. */
int
lab_ipmi_sel(struct lab_ipmi *ip, struct lab_sel_entry **ret, size_t *n,
    struct lab_err *err)
{
	struct sel_walk	 w = { .ip = ip };
	struct lab_err	 sdr_err;
	ipmi_sel_ctx_t	 sel = NULL;
	int		 rv = -1, e;

	/* Names are a nicety: a BMC without an SDR still has a SEL. */
	lab_err_init(&sdr_err);
	if (sdr_load(ip, &sdr_err) < 0 &&
	    (ip->dead || sdr_err.code == LAB_EXIT_ENV)) {
		lab_err_set(err, sdr_err.code, "%s", sdr_err.msg);
		return -1;
	}
	if ((w.sdr = ipmi_sdr_ctx_create()) == NULL ||
	    (sel = ipmi_sel_ctx_create(ip->ctx, NULL)) == NULL ||
	    ipmi_sel_ctx_set_separator(sel, " ; ") < 0) {
		lab_err_oom(err);
		goto out;
	}
	if ((ip->workarounds & LAB_IPMI_WA_ASSUMESYSTEMEVENT) &&
	    ipmi_sel_ctx_set_flags(sel,
	    IPMI_SEL_FLAGS_ASSUME_SYTEM_EVENT_RECORDS) < 0) {
		lab_err_oom(err);
		goto out;
	}
	if (ipmi_sel_parse(sel, IPMI_SEL_RECORD_ID_FIRST,
	    IPMI_SEL_RECORD_ID_LAST, sel_entry, &w) < 0) {
		e = ipmi_sel_ctx_errnum(sel);
		if (w.oom || e == IPMI_SEL_ERR_OUT_OF_MEMORY)
			lab_err_oom(err);
		else if (e == IPMI_SEL_ERR_IPMI_ERROR)
			lab_ipmi_fail(ip, "read SEL", NULL,
			    IPMI_NET_FN_STORAGE_RQ, err);
		else if (e != IPMI_SEL_ERR_NO_SEL_ENTRIES)
			lab_err_set(err, LAB_EXIT_PARTIAL,
			    "BMC %s: read SEL: %s", ip->peer,
			    ipmi_sel_ctx_errormsg(sel));
		if (e != IPMI_SEL_ERR_NO_SEL_ENTRIES || w.oom)
			goto out;
	}
	*ret = lab_steal(&w.v);
	*n = w.n;
	rv = 0;
out:
	if (rv < 0)
		lab_sel_free(w.v, w.n);
	ipmi_sel_ctx_destroy(sel);
	ipmi_sdr_ctx_destroy(w.sdr);
	return rv;
}
