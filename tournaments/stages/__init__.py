"""Running a tournament in stages (Swiss, pools, a cut into a knockout): the writes in
:mod:`.services`, making a stage's matches in :mod:`.matches`, reading its results and
standings in :mod:`.standings`, the stages page's forms in :mod:`.forms`. A tournament
without stages is one bracket (:mod:`tournaments.draw`)."""
