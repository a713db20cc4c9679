/* SPDX-License-Identifier: GPL-3.0-or-later */
/* MAC addresses, addresses and names: lab_parse_mac, lab_check_address,
 * lab_check_name, lab_parse_int, lab_subnet_has. */
#include <stdio.h>
#include <string.h>

#include "lab/parse.h"
#include "lab/subnet.h"

#include "tests.h"

#define UNTOUCHED	"untouched-buffer"

/* s normalises to want. */
static void
mac_ok(const char *s, const char *want)
{
	char		 out[18] = UNTOUCHED;
	const char	*why = NULL;

	if (lab_parse_mac(s, out, &why) != 0) {
		fprintf(stderr, "lab_parse_mac(\"%s\") refused: %s\n", s,
		    why ? why : "no reason");
		tests_failed++;
		return;
	}
	CHECK_STR(out, want);
}

/* s is refused with a reason containing reason; out is untouched. */
static void
mac_bad(const char *s, const char *reason)
{
	char		 out[18] = UNTOUCHED;
	const char	*why = NULL;

	if (lab_parse_mac(s, out, &why) != -1) {
		fprintf(stderr, "lab_parse_mac(\"%s\") accepted as %s\n", s,
		    out);
		tests_failed++;
		return;
	}
	CHECK_HAS(why, reason);
	CHECK_STR(out, UNTOUCHED);
	CHECK(lab_parse_mac(s, out, NULL) == -1);
}

static void
test_mac(void)
{
	const char	*want = "00:26:55:d1:0a:01";

	mac_ok("00:26:55:d1:0a:01", want);
	mac_ok("00:26:55:D1:0A:01", want);
	mac_ok("00-26-55-d1-0a-01", want);
	mac_ok("00-26-55-D1-0A-01", want);
	mac_ok("0026.55d1.0a01", want);
	mac_ok("0026.55D1.0A01", want);
	mac_ok("002655d10a01", want);
	mac_ok("002655D10A01", want);
	mac_ok("AA:BB:CC:DD:EE:FF", "aa:bb:cc:dd:ee:ff");
	mac_ok("fe:ff:ff:ff:ff:ff", "fe:ff:ff:ff:ff:ff");
	/* locally administered unicast is a NIC's MAC */
	mac_ok("02:00:00:00:00:01", "02:00:00:00:00:01");
	mac_ok("00:00:00:00:00:01", "00:00:00:00:00:01");

	/* lengths */
	mac_bad("", "six hex bytes");
	mac_bad("00:26:55:d1:0a", "six hex bytes");
	mac_bad("00:26:55:d1:0a:01:02", "six hex bytes");
	mac_bad("00:26:55:d1:0a:1", "six hex bytes");
	mac_bad("0:26:55:d1:0a:01", "six hex bytes");
	mac_bad("0026.55d1.0a0", "six hex bytes");
	mac_bad("0026.55d1.0a011", "six hex bytes");
	mac_bad("002655d10a0", "six hex bytes");
	mac_bad("002655d10a011", "six hex bytes");
	mac_bad("00:26:55:d1:0a:01 ", "six hex bytes");
	/* separators */
	mac_bad("00:26-55:d1:0a:01", "six hex bytes");
	mac_bad("00-26-55-d1-0a:01", "six hex bytes");
	mac_bad("00.26.55.d1.0a.01", "six hex bytes");
	mac_bad("0026:55d1:0a01", "six hex bytes");
	mac_bad("00265.5d1.0a01", "six hex bytes");
	mac_bad("00:26::55:d1:0a:1", "six hex bytes");
	/* hex digits */
	mac_bad("00:26:55:d1:0a:0g", "six hex bytes");
	mac_bad("g0:26:55:d1:0a:01", "six hex bytes");
	mac_bad("00:26:55:d1:0a: 1", "six hex bytes");
	mac_bad("0026.55d1.0a0z", "six hex bytes");
	mac_bad("zz2655d10a01", "six hex bytes");
	mac_bad("00265 d10a01", "six hex bytes");
	mac_bad("+0:26:55:d1:0a:01", "six hex bytes");
	/* not a NIC's address */
	mac_bad("01:00:5e:00:00:01", "multicast");
	mac_bad("33:33:00:00:00:01", "multicast");
	mac_bad("ff:ff:ff:ff:ff:ff", "broadcast");
	mac_bad("FFFF.FFFF.FFFF", "broadcast");
	mac_bad("00:00:00:00:00:00", "00:00:00:00:00:00");
	mac_bad("000000000000", "00:00:00:00:00:00");
	mac_bad("0000.0000.0000", "00:00:00:00:00:00");
}

static void
addr_ok(const char *s)
{
	const char	*why = NULL;

	if (lab_check_address(s, &why) != 0) {
		fprintf(stderr, "lab_check_address(\"%s\") refused: %s\n", s,
		    why ? why : "no reason");
		tests_failed++;
	}
}

static void
addr_bad(const char *s, const char *reason)
{
	const char	*why = NULL;

	if (lab_check_address(s, &why) != -1) {
		fprintf(stderr, "lab_check_address(\"%s\") accepted\n", s);
		tests_failed++;
		return;
	}
	CHECK_HAS(why, reason);
	CHECK(lab_check_address(s, NULL) == -1);
}

static void
test_address(void)
{
	char	buf[300];

	addr_ok("192.0.2.21");
	addr_ok("0.0.0.0");
	addr_ok("255.255.255.255");
	addr_ok("127.0.0.1");
	addr_ok("::1");
	addr_ok("::");
	addr_ok("2001:db8::1");
	addr_ok("fe80::1");
	addr_ok("2001:0db8:0000:0000:0000:0000:0000:0001");
	addr_ok("::ffff:192.0.2.1");
	addr_ok("localhost");
	addr_ok("microserver1");
	addr_ok("rac1.lab.example.org");
	addr_ok("a-b.c-d");
	addr_ok("1host.example");
	addr_ok("xn--bcher-kva.example");
	addr_ok("A.B.C");

	addr_bad("999.1.1.1", "IPv4");
	addr_bad("256.0.0.1", "IPv4");
	addr_bad("1.2.3", "IPv4");
	addr_bad("1.2.3.4.5", "IPv4");
	addr_bad("1234", "IPv4");
	addr_bad("1..2.3", "IPv4");
	addr_bad("2001:db8::g", "IPv6");
	addr_bad("1:2", "IPv6");
	addr_bad("2001:db8:::1", "IPv6");
	addr_bad("fe80::1%eth0", "IPv6");
	addr_bad("[::1]", "IPv6");
	addr_bad("192.0.2.1:623", "IPv6");
	addr_bad("", "IPv4 or IPv6 address or a host name");
	addr_bad("a..b", "host name");
	addr_bad("-a.b", "host name");
	addr_bad("a-.b", "host name");
	addr_bad("a.-b", "host name");
	addr_bad(".a", "host name");
	addr_bad("a.", "host name");
	addr_bad(".", "IPv4");
	addr_bad("a b", "host name");
	addr_bad("a_b.example", "host name");
	addr_bad("host/1", "host name");
	addr_bad("caf\xc3\xa9.example", "host name");

	/* labels of 63 characters, names of 253 */
	memset(buf, 'a', 63);
	buf[63] = '\0';
	addr_ok(buf);
	memset(buf, 'a', 64);
	buf[64] = '\0';
	addr_bad(buf, "host name");
	snprintf(buf, sizeof(buf), "%.63s.%.63s.%.63s.%.61s",
	    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
	    "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb",
	    "ccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc",
	    "ddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd");
	CHECK(strlen(buf) == 253);
	addr_ok(buf);
	strcat(buf, "d");
	addr_bad(buf, "IPv4 or IPv6 address or a host name");
}

static void
name_ok(const char *s)
{
	const char	*why = NULL;

	if (lab_check_name(s, &why) != 0) {
		fprintf(stderr, "lab_check_name(\"%s\") refused: %s\n", s,
		    why ? why : "no reason");
		tests_failed++;
	}
}

static void
name_bad(const char *s, const char *reason)
{
	const char	*why = NULL;

	if (lab_check_name(s, &why) != -1) {
		fprintf(stderr, "lab_check_name(\"%s\") accepted\n", s);
		tests_failed++;
		return;
	}
	CHECK_HAS(why, reason);
	CHECK(lab_check_name(s, NULL) == -1);
}

static void
test_name(void)
{
	char	buf[80];

	name_ok("a");
	name_ok("7");
	name_ok("microserver1");
	name_ok("ml-110");
	name_ok("rac_default");
	name_ok("sg200.ro");
	name_ok("Neo");
	name_ok("1abc");
	memset(buf, 'n', 63);
	buf[63] = '\0';
	name_ok(buf);
	buf[63] = 'n';
	buf[64] = '\0';
	name_bad(buf, "at most 63");

	name_bad("", "empty");
	name_bad("-a", "starts with a letter or a digit");
	name_bad(".a", "starts with a letter or a digit");
	name_bad("_a", "starts with a letter or a digit");
	name_bad("@nas", "starts with a letter or a digit");
	name_bad("!a", "starts with a letter or a digit");
	name_bad("a b", "only letters");
	name_bad("a[1]", "only letters");
	name_bad("a,b", "only letters");
	name_bad("a@b", "only letters");
	name_bad("a!b", "only letters");
	name_bad("a/b", "only letters");
	name_bad("a:b", "only letters");
	name_bad("caf\xc3\xa9", "only letters");
	name_bad("a\tb", "only letters");
}

static void
test_int(void)
{
	long	v = 42;

	CHECK(lab_parse_int("623", 1, 65535, &v) == 0 && v == 623);
	CHECK(lab_parse_int("-5", -10, 10, &v) == 0 && v == -5);
	CHECK(lab_parse_int("1", 1, 1, &v) == 0 && v == 1);
	v = 42;
	CHECK(lab_parse_int("0", 1, 65535, &v) == -1 && v == 42);
	CHECK(lab_parse_int("65536", 1, 65535, &v) == -1 && v == 42);
	CHECK(lab_parse_int("", 0, 10, &v) == -1 && v == 42);
	CHECK(lab_parse_int(" 5", 0, 10, &v) == -1 && v == 42);
	CHECK(lab_parse_int("5 ", 0, 10, &v) == -1 && v == 42);
	CHECK(lab_parse_int("5x", 0, 10, &v) == -1 && v == 42);
	CHECK(lab_parse_int("abc", 0, 10, &v) == -1 && v == 42);
	CHECK(lab_parse_int("99999999999999999999999", 0, 10, &v) == -1 &&
	    v == 42);
}

/* A gateway against the host's address/prefix (the inventory's check). */
static void
test_subnet(void)
{
	CHECK(lab_subnet_has("192.0.2.31/28", "192.0.2.17") == 1);
	CHECK(lab_subnet_has("192.0.2.31/28", "192.0.2.16") == 1);
	CHECK(lab_subnet_has("192.0.2.31/28", "192.0.2.15") == 0);
	CHECK(lab_subnet_has("192.0.2.31/28", "192.0.2.32") == 0);
	CHECK(lab_subnet_has("192.0.2.40/24", "192.0.2.1") == 1);
	CHECK(lab_subnet_has("192.0.2.40/24", "192.0.3.1") == 0);
	CHECK(lab_subnet_has("10.1.2.3/9", "10.127.0.1") == 1);
	CHECK(lab_subnet_has("10.1.2.3/9", "10.128.0.1") == 0);
	CHECK(lab_subnet_has("10.0.0.1/1", "127.0.0.1") == 1);
	CHECK(lab_subnet_has("10.0.0.1/1", "128.0.0.1") == 0);
	CHECK(lab_subnet_has("192.0.2.5/32", "192.0.2.5") == 1);
	CHECK(lab_subnet_has("192.0.2.5/32", "192.0.2.6") == 0);
	CHECK(lab_subnet_has("2001:db8::10/64", "2001:db8::1") == 1);
	CHECK(lab_subnet_has("2001:db8::10/64", "2001:db8:0:1::1") == 0);
	CHECK(lab_subnet_has("2001:db8::10/61", "2001:db8:0:7::1") == 1);
	CHECK(lab_subnet_has("2001:db8::10/61", "2001:db8:0:8::1") == 0);
	/* the other family is another network; junk does not parse */
	CHECK(lab_subnet_has("192.0.2.40/24", "2001:db8::1") == 0);
	CHECK(lab_subnet_has("2001:db8::10/64", "192.0.2.1") == 0);
	CHECK(lab_subnet_has("192.0.2.40/24", "gw.example") == -1);
	CHECK(lab_subnet_has("192.0.2.40", "192.0.2.1") == -1);
	CHECK(lab_subnet_has("192.0.2.40/33", "192.0.2.1") == -1);
}

int
main(void)
{
	test_mac();
	test_subnet();
	test_address();
	test_name();
	test_int();
	TESTS_DONE();
}
