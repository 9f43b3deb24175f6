"""Questions a player asks of one chart: which row a roll selects (`lookup`), and how the answers
are rendered for `chartc lookup` and `chartc odds` (`reports`)."""
