/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_SUBNET_H
#define LAB_SUBNET_H

/*
 * Whether the address ip lies in the network of cidr ("192.0.2.30/24"):
 * 1 yes, 0 no (another network, or the other address family), -1 when
 * either does not parse (lab_check_ip, lab_check_cidr say why).
 */
int	lab_subnet_has(const char *cidr, const char *ip);

#endif
