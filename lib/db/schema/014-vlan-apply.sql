-- SPDX-License-Identifier: GPL-3.0-or-later
-- Version 014: placeholder (issue 19).
SELECT 1;
