"""The Submission model moves from the tournaments app into this one (state only).

It was created by ``tournaments.0009_submission`` (and changed by 0011) and keeps its table,
``tournaments_submission``, named in its ``Meta.db_table``. This migration only tells
Django's state that the model now belongs to ``web``; the database is not touched, so a
database migrated before keeps every row, and a fresh one gets the same table from the
tournaments migrations. ``tournaments.0014_submission_moves_to_web`` then removes the
model from the tournaments app's state (also state only).
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('tournaments', '0013_tournament_auto_call'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name='Submission',
                    fields=[
                        ('key', models.CharField(max_length=32, primary_key=True, serialize=False, verbose_name='submission id')),
                        ('path', models.CharField(max_length=500, verbose_name='path')),
                        ('status', models.PositiveSmallIntegerField(default=0, verbose_name='status')),
                        ('headers', models.JSONField(default=dict, verbose_name='headers')),
                        ('body', models.BinaryField(default=b'', verbose_name='body')),
                        ('messages', models.JSONField(default=list, verbose_name='messages')),
                        ('created_at', models.DateTimeField(auto_now_add=True, db_index=True, verbose_name='created')),
                        ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='user')),
                    ],
                    options={
                        'verbose_name': 'form submission',
                        'verbose_name_plural': 'form submissions',
                        'db_table': 'tournaments_submission',
                    },
                ),
            ],
        ),
    ]
