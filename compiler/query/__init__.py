"""What a player's questions print, as text and JSON: `chartc lookup` (`lookup`), `chartc odds`
(`odds`), their `--follow` (`follow`) and `chartc analyze` (`analyze`); what they print alike is
`common`. The answers themselves come from `compiler.engine`."""
