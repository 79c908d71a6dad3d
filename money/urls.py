"""One tournament's money: the director's money page, payments, side pots, and the
public prizes page and PDF."""

from django.urls import path

from money import views_money, views_side_pots

app_name = "money"

urlpatterns = [
    path("t/<slug:slug>/manage/money/", views_money.money_page, name="money"),
    path("t/<slug:slug>/manage/money/save/", views_money.money_save, name="money-save"),
    path(
        "t/<slug:slug>/manage/money/entries/<int:entry_id>/",
        views_money.payment_save,
        name="payment-save",
    ),
    path(
        "t/<slug:slug>/manage/money/side-pots/",
        views_side_pots.side_pot_create,
        name="side-pot-create",
    ),
    path(
        "t/<slug:slug>/manage/money/side-pots/<int:pot_id>/",
        views_side_pots.side_pot_save,
        name="side-pot-save",
    ),
    path(
        "t/<slug:slug>/manage/money/side-pots/<int:pot_id>/entrants/",
        views_side_pots.side_pot_entrants,
        name="side-pot-entrants",
    ),
    path(
        "t/<slug:slug>/manage/money/side-pots/<int:pot_id>/delete/",
        views_side_pots.side_pot_delete,
        name="side-pot-delete",
    ),
    path("t/<slug:slug>/prizes/", views_money.prizes_page, name="prizes"),
    path("t/<slug:slug>/prizes.pdf", views_money.prizes_pdf, name="prizes-pdf"),
]
