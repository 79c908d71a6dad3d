"""The phones' models move from the scoring app into this one (state only).

``PhoneEvent`` and ``DirectorCall`` were created by ``scoring.0006_phone_events_director_calls``
and ``PhoneTally`` by ``scoring.0007_phone_tallies``; they keep their tables,
``scoring_phoneevent``, ``scoring_phonetally`` and ``scoring_directorcall``, named in each
``Meta.db_table``. This migration only tells Django's state that the models now belong to
``tables``; the database is not touched, so a database migrated before keeps every row, and
a fresh one gets the same tables from the scoring migrations.
``scoring.0008_phone_plumbing_moves_to_tables`` then removes the models from the scoring
app's state (also state only).
"""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('scoring', '0007_phone_tallies'),
        ('tournaments', '0013_tournament_auto_call'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name='DirectorCall',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('reason', models.CharField(choices=[('dispute', 'A dispute'), ('missing', 'A missing player'), ('phone', 'A phone problem'), ('other', 'Something else')], max_length=8, verbose_name='reason')),
                        ('note', models.CharField(blank=True, max_length=140, verbose_name='note')),
                        ('status', models.CharField(choices=[('open', 'Sent'), ('answered', 'The director is coming'), ('closed', 'Closed')], default='open', max_length=8, verbose_name='status')),
                        ('device', models.CharField(blank=True, max_length=8, verbose_name='device')),
                        ('made_at', models.DateTimeField(auto_now_add=True, verbose_name='made at')),
                        ('answered_at', models.DateTimeField(blank=True, null=True, verbose_name='answered at')),
                        ('closed_at', models.DateTimeField(blank=True, null=True, verbose_name='closed at')),
                        ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='director_calls', to='tournaments.match', verbose_name='match')),
                    ],
                    options={
                        'verbose_name': 'director call',
                        'verbose_name_plural': 'director calls',
                        'db_table': 'scoring_directorcall',
                        'indexes': [models.Index(fields=['match', 'made_at'], name='director_call_match_made')],
                        'constraints': [models.UniqueConstraint(condition=models.Q(('status__in', ['open', 'answered'])), fields=('match',), name='director_call_one_open'), models.CheckConstraint(condition=models.Q(('status__in', ['open', 'answered', 'closed'])), name='director_call_status_valid')],
                    },
                ),
                migrations.CreateModel(
                    name='PhoneEvent',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('device', models.CharField(blank=True, max_length=8, verbose_name='device')),
                        ('kind', models.CharField(choices=[('resent', 'resent'), ('taken', 'refused: hand already entered'), ('stale', 'refused: score changed')], max_length=8, verbose_name='kind')),
                        ('at', models.DateTimeField(auto_now_add=True, verbose_name='at')),
                        ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='tournaments.match', verbose_name='match')),
                    ],
                    options={
                        'verbose_name': 'phone event',
                        'verbose_name_plural': 'phone events',
                        'db_table': 'scoring_phoneevent',
                        'indexes': [models.Index(fields=['match', 'at'], name='phone_event_match_at')],
                    },
                ),
                migrations.CreateModel(
                    name='PhoneTally',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('kind', models.CharField(choices=[('resent', 'resent'), ('taken', 'refused: hand already entered'), ('stale', 'refused: score changed')], max_length=8, verbose_name='kind')),
                        ('count', models.PositiveIntegerField(default=0, verbose_name='count')),
                        ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='tournaments.match', verbose_name='match')),
                    ],
                    options={
                        'verbose_name': 'phone tally',
                        'verbose_name_plural': 'phone tallies',
                        'db_table': 'scoring_phonetally',
                        'constraints': [models.UniqueConstraint(fields=('match', 'kind'), name='phone_tally_one_per_kind')],
                    },
                ),
            ],
        ),
    ]
