# Club nights and tournaments: rosters, schedules, results, standings, the room's page.
