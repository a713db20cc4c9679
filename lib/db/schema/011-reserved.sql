-- SPDX-License-Identifier: GPL-3.0-or-later
-- Version 11: reserved for lab burnin (issue 18, another branch), so that
-- 012 builds on this branch; the merge drops this file for that one's.
SELECT 1;
