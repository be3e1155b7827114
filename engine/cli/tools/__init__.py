"""The developer's tools, apart from play: ``bench``, ``compare``, ``sim``, ``catalog`` and ``new-plugin``
(each subcommand is named in :data:`engine.cli.parser.SUBCOMMANDS`)."""
